import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createLogger } from "@compliance-graph/process-shell";
import { SharedQuotaCounter } from "../src/quotas/shared-quota-counter.js";

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a shared quota counter whose database is away", () => {
  it("keeps quotas in force, each replica holding its share, and keeps what it admitted for later", async () => {
    const outcomes: string[] = [];
    const counter = new SharedQuotaCounter({
      databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/quota_away`,
      replicas: 2,
      syncIntervalMs: 3_600_000,
      logger: createLogger("gateway", "silent"),
      onSync: (outcome) => outcomes.push(outcome),
    });
    try {
      const endsAt = Date.now() + 60_000;
      // Before any sync has failed, the replica trusts the shared count (none read yet).
      expect(counter.take("clientRequests k", endsAt, 1, 10)).toBe(true);
      await counter.sync();
      expect(outcomes).toEqual(["error"]);
      // Away: 10 per window over 2 replicas is 5 here, the one admitted before included.
      const admitted = Array.from({ length: 6 }, () => counter.take("clientRequests k", endsAt, 1, 10));
      expect(admitted).toEqual([true, true, true, true, false, false]);
    } finally {
      await counter.close();
    }
  });
});
