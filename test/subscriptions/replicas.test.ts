import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopd, type RunningAopd } from "@compliance-graph/aopd";
import { createInternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { resultsBeforeEndMarker } from "./support/await-end-marker.js";
import { awaitLive } from "./support/await-live.js";
import { proofWriterOn, type ProofWriter } from "./support/proof-writer.js";
import { modernClient, subscribeModern, wsUrl } from "./support/subscription-clients.js";

const query = "subscription($filter: AopdProofFilterInput) { aopdProofs(filter: $filter) { id status } }";
const byCustomer = (customerId: string) => ({ filter: { is: { any: { customerId: { eq: customerId } } } } });

describe("proof events across aopd replicas on one database", () => {
  let stack: Stack;
  let replicaB: RunningAopd;
  let throughB: ProofWriter;
  let databaseUrl: string;
  let token: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("subscription-replicas");
    // The gateway routes to replica A (the stack's aopd); replica B serves no gateway here.
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 0 } });
    replicaB = await startAopd({
      config: { port: 0, databaseUrl, production: false, expiryIntervalSeconds: 0 },
      authenticate: createInternalTokenVerifier({ audience: "aopd", publicKeys: [stack.internalKey.publicJwk] }),
      logger: createLogger("aopd", "silent"),
    });
    throughB = proofWriterOn(replicaB.services.db);
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    await replicaB?.close();
    await stack?.close();
  });

  it("delivers a write made through replica B to a subscriber served by replica A", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const received = subscribeModern(client, query, byCustomer("c-replica"));
      const skip = await awaitLive(throughB, received, { customerId: "c-replica" });
      const row = await throughB.create({ customerId: "c-replica" });
      await throughB.changeStatus(row.id, "VERIFIED");
      await received.until((state) => state.results.length >= skip + 2);
      expect(received.results.slice(skip).map((result) => result.data?.aopdProofs)).toEqual([
        { id: row.id, status: expect.stringMatching(/PENDING|VERIFIED/) },
        { id: row.id, status: "VERIFIED" },
      ]);
    } finally {
      await client.dispose();
    }
  });

  it("keeps subscriptions running when the LISTEN connections drop: the writes made meanwhile arrive once, in order, after reconnection", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const received = subscribeModern(client, query, byCustomer("c-interrupted"));
      const skip = await awaitLive(throughB, received, { customerId: "c-interrupted" });
      // What a failover or a network cut does to the listening sessions of both replicas; the
      // writes go on while they reconnect.
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      const { rows } = await admin.query(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
      );
      await admin.end();
      expect(rows.length).toBeGreaterThanOrEqual(2);
      const written: string[] = [];
      for (let index = 0; index < 10; index += 1) written.push((await throughB.create({ customerId: "c-interrupted" })).id);
      const results = await resultsBeforeEndMarker(received, () => throughB.create({ customerId: "c-interrupted", comment: "end marker" }), skip);
      expect(received.error).toBeUndefined();
      expect(received.completed).toBe(false);
      expect(results.map((result) => (result.data?.aopdProofs as { id: string }).id)).toEqual(written);
    } finally {
      await client.dispose();
    }
  });
});
