import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopd, type RunningAopd } from "@compliance-graph/aopd";
import { createLogger } from "@compliance-graph/process-shell";
import { resultsBeforeEndMarker } from "./support/await-end-marker.js";
import { awaitLive } from "./support/await-live.js";
import { proofWriterOn, type ProofWriter } from "./support/proof-writer.js";
import { modernClient, subscribeModern } from "./support/subscription-clients.js";

/** The same event path on embedded PGlite, where LISTEN/NOTIFY is PGlite's in-process `listen`. */
describe("proof events on PGlite", () => {
  let aopd: RunningAopd;
  let writer: ProofWriter;

  beforeAll(async () => {
    // No verifier: a development subgraph on its own, every caller a developer with every role.
    aopd = await startAopd({
      config: { port: 0, dataDir: "memory://", production: false, expiryIntervalSeconds: 0 },
      insecureDevelopmentIdentity: true,
      logger: createLogger("aopd", "silent"),
    });
    writer = proofWriterOn(aopd.services.db);
  });
  afterAll(() => aopd?.close());

  it("delivers committed writes that match the filter, in commit order, and nothing of a rolled-back one", async () => {
    const client = modernClient(aopd.url.replace(/^http/, "ws"), undefined);
    try {
      const received = subscribeModern(
        client,
        'subscription { aopdProofs(filter: { is: { any: { customerId: { ilike: "pg-%" } } } }) { id customerId status } }',
      );
      const skip = await awaitLive(writer, received, { customerId: "pg-probe" });
      await writer.createRolledBack({ customerId: "pg-rolled-back" });
      const first = await writer.create({ customerId: "pg-a" });
      await writer.create({ customerId: "other" });
      const second = await writer.create({ customerId: "PG-B" });
      await writer.changeStatus(first.id, "EXPIRED");
      const results = await resultsBeforeEndMarker(received, () => writer.create({ customerId: "pg-end-marker" }), skip);
      expect(results.map((result) => result.data?.aopdProofs)).toEqual([
        { id: first.id, customerId: "pg-a", status: expect.stringMatching(/PENDING|EXPIRED/) },
        { id: second.id, customerId: "PG-B", status: "PENDING" },
        { id: first.id, customerId: "pg-a", status: "EXPIRED" },
      ]);
    } finally {
      await client.dispose();
    }
  });

  it("refuses a bad filter with BAD_USER_INPUT naming the field", async () => {
    const client = modernClient(aopd.url.replace(/^http/, "ws"), undefined);
    try {
      const received = subscribeModern(client, "subscription { aopdProofs(filter: { is: { any: { status: [] } } }) { id } }");
      await received.until((state) => state.results.length > 0 || state.error !== undefined);
      const errors = received.error ?? received.results[0]?.errors;
      expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "BAD_USER_INPUT", field: "filter.is.any.status" }) })]);
    } finally {
      await client.dispose();
    }
  });
});
