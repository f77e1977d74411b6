import { Counter, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultFilterLimits } from "@compliance-graph/filter";
import { createLogger } from "@compliance-graph/process-shell";
import { pollUntil } from "@compliance-graph/test-kit";
import type { Database } from "../../src/database/open-database.js";
import { startProofEventPump, type ProofEventPump } from "../../src/events/start-proof-event-pump.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

/** An iterator's next value, or a failure naming what did not arrive in time. */
async function nextWithin<T>(events: AsyncIterator<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms)));
  try {
    const result = await Promise.race([events.next(), timeout]);
    if (result.done) throw new Error(`the events ended before ${what}`);
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

// The pump runs on its own, with no WebSocket server and no HTTP server: whatever consumes the
// hub (the portal's event streams, GraphQL subscriptions) gets events because the pump runs.
describe.each(databaseDrivers)("the proof event pump on its own (%s)", (driver) => {
  let database: Database;
  let pump: ProofEventPump;
  const registry = new Registry();
  const proofEvents = new Counter({
    name: "aopd_proof_events_total",
    help: "numbered",
    labelNames: ["change", "kind", "status"] as const,
    registers: [registry],
  });
  beforeAll(async () => {
    database = await openTestDatabase(driver, "eventpump");
    pump = startProofEventPump({ database, limits: defaultFilterLimits, metrics: { proofEvents }, logger: createLogger("aopd", "silent") });
    await pump.ready;
  });
  afterAll(async () => {
    await pump?.close();
    await database?.close();
  });

  it("records, numbers and delivers a status change to a subscriber of its hub, and counts it", async () => {
    const events = await pump.hub.subscribe(null);
    const { id } = await database.db
      .insertInto("aopd_proof")
      .values({ kind: "signature", status: "PENDING", customer_id: "pump", asset: "DTI4H95J0R2X", address: "bc1qpump", message: "m" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await nextWithin(events, "the CREATED event")).aopdProofs).toMatchObject({ id, status: "PENDING" });
    await database.db.updateTable("aopd_proof").set({ status: "VERIFIED" }).where("id", "=", id).execute();
    expect((await nextWithin(events, "the VERIFIED event")).aopdProofs).toMatchObject({ id, status: "VERIFIED" });
    // The numbering's own answer (which counts) and the notification (which delivers) travel on two
    // connections: the count may land just after the delivery.
    const verifiedCount = async () =>
      (await proofEvents.get()).values.find((value) => value.labels.change === "STATUS_CHANGED" && value.labels.status === "VERIFIED")?.value;
    expect(await pollUntil("the VERIFIED event counted", verifiedCount, (count) => count !== undefined, { timeoutMs: 30_000, intervalMs: 10 })).toBe(1);
    await events.return?.();
  });

  it("ends its subscribers when closed, so no consumer waits on a stopped pump", async () => {
    const other = startProofEventPump({ database, limits: defaultFilterLimits, metrics: { proofEvents }, logger: createLogger("aopd", "silent") });
    await other.ready;
    const events = await other.hub.subscribe(null);
    const next = events.next();
    await other.close();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
