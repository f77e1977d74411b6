import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "graphql-ws";
import type { SubscriptionClient } from "subscriptions-transport-ws";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { resultsBeforeEndMarker } from "./support/await-end-marker.js";
import { awaitLive } from "./support/await-live.js";
import { addressWithTransfers, expectedTransfers, openProofWriter, type ProofWriter } from "./support/proof-writer.js";
import { legacyClient, modernClient, subscribeLegacy, subscribeModern, wsUrl } from "./support/subscription-clients.js";

const subscription = `subscription Proofs($filter: AopdProofFilterInput) {
  aopdProofs(filter: $filter) {
    __typename id status customerId address comment
    ... on AopdSignatureProof { message }
    travelRuleTransfers { counterpartyVasp direction address }
  }
}`;

const byCustomer = (customerId: string) => ({ filter: { is: { any: { customerId: { eq: customerId } } } } });

describe("proof subscriptions through the gateway", () => {
  let stack: Stack;
  let writer: ProofWriter;
  let token: string;
  const clients: { dispose(): unknown }[] = [];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("subscriptions");
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 0 } });
    writer = await openProofWriter(databaseUrl);
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await writer?.close();
    await stack?.close();
  });

  const modern = (path = "/graphql"): Client => {
    const client = modernClient(wsUrl(stack.gateway.url, path), token);
    clients.push(client);
    return client;
  };
  const legacy = (): SubscriptionClient => {
    const client = legacyClient(wsUrl(stack.gateway.url, "/graphql-ws"), token);
    clients.push({ dispose: () => client.close() });
    return client;
  };

  it("delivers each created proof with the field trpd contributes, resolved per event (graphql-transport-ws)", async () => {
    const received = subscribeModern(modern(), subscription, byCustomer("c-trpd"));
    const skip = await awaitLive(writer, received, { customerId: "c-trpd" });
    const rows = [];
    for (let i = 0; i < 3; i += 1) rows.push(await writer.create({ customerId: "c-trpd", comment: `proof ${i}`, address: addressWithTransfers() }));
    await received.until((state) => state.results.length >= skip + 3);
    expect(received.results.slice(skip)).toEqual(
      rows.map((row) => ({
        data: {
          aopdProofs: {
            __typename: "AopdSignatureProof",
            id: row.id,
            status: "PENDING",
            customerId: "c-trpd",
            address: row.address,
            comment: row.comment,
            message: row.message,
            travelRuleTransfers: expectedTransfers(row.address!),
          },
        },
      })),
    );
    expect(received.results.slice(skip).every((result) => (result.data?.aopdProofs as { travelRuleTransfers: unknown[] }).travelRuleTransfers.length > 0)).toBe(
      true,
    );
  });

  it("sends only proofs that match the filter, including status changes", async () => {
    const received = subscribeModern(
      modern("/graphql-ws"),
      "subscription($filter: AopdProofFilterInput) { aopdProofs(filter: $filter) { id status customerId } }",
      {
        filter: { is: { any: { customerId: { eq: "c-wanted" }, status: ["PENDING", "VERIFIED"] } } },
      },
    );
    const skip = await awaitLive(writer, received, { customerId: "c-wanted" });
    await writer.create({ customerId: "c-other" });
    const wanted = await writer.create({ customerId: "c-wanted" });
    await writer.changeStatus(wanted.id, "EXPIRED");
    const verified = await writer.create({ customerId: "c-wanted" });
    await writer.changeStatus(verified.id, "VERIFIED");
    const results = await resultsBeforeEndMarker(received, () => writer.create({ customerId: "c-wanted", comment: "end marker" }), skip);
    expect(results.map((result) => result.data?.aopdProofs)).toEqual([
      { id: wanted.id, status: "PENDING", customerId: "c-wanted" },
      { id: verified.id, status: expect.stringMatching(/PENDING|VERIFIED/), customerId: "c-wanted" },
      { id: verified.id, status: "VERIFIED", customerId: "c-wanted" },
    ]);
  });

  it("misses no committed change and delivers in commit order; a rolled-back write publishes nothing", async () => {
    const received = subscribeModern(modern(), "subscription($filter: AopdProofFilterInput) { aopdProofs(filter: $filter) { id } }", byCustomer("c-burst"));
    const skip = await awaitLive(writer, received, { customerId: "c-burst" });
    const ids: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      if (i % 10 === 0) await writer.createRolledBack({ customerId: "c-burst" });
      ids.push((await writer.create({ customerId: "c-burst" })).id);
    }
    const results = await resultsBeforeEndMarker(received, () => writer.create({ customerId: "c-burst", comment: "end marker" }), skip);
    expect(results.map((result) => (result.data?.aopdProofs as { id: string }).id)).toEqual(ids);
  });

  it("serves the legacy subprotocol (subscriptions-transport-ws) with the same results", async () => {
    const received = subscribeLegacy(legacy(), subscription, byCustomer("c-legacy"));
    const skip = await awaitLive(writer, received, { customerId: "c-legacy" });
    const row = await writer.create({ customerId: "c-legacy", comment: "legacy" });
    await received.until((state) => state.results.length > skip);
    expect(received.results[skip]).toEqual({
      data: {
        aopdProofs: {
          __typename: "AopdSignatureProof",
          id: row.id,
          status: "PENDING",
          customerId: "c-legacy",
          address: row.address,
          comment: "legacy",
          message: row.message,
          travelRuleTransfers: expectedTransfers(row.address!),
        },
      },
    });
  });

  it("shares one subgraph subscription among identical subscriptions of one caller, each still receiving every event", async () => {
    const client = modern();
    const first = subscribeModern(client, 'subscription { aopdProofs(filter: { is: { any: { customerId: { eq: "c-shared" } } } }) { id } }');
    const second = subscribeModern(client, 'subscription { aopdProofs(filter: { is: { any: { customerId: { eq: "c-shared" } } } }) { id } }');
    const skipFirst = await awaitLive(writer, first, { customerId: "c-shared" });
    await second.until((state) => state.results.length > 0);
    const skipSecond = second.results.length;
    const row = await writer.create({ customerId: "c-shared" });
    await first.until((state) => state.results.length > skipFirst);
    await second.until((state) => state.results.length > skipSecond);
    expect(first.results.at(-1)).toEqual({ data: { aopdProofs: { id: row.id } } });
    expect(second.results.at(-1)).toEqual({ data: { aopdProofs: { id: row.id } } });
  });
});
