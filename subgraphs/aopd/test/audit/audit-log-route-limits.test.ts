import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";

/**
 * The audit log's and the receipts' public routes take no token, so each counts against its client
 * address as the portal's routes do: reads (checkpoint, key, consistency proof, receipt status)
 * share one budget, a cosignature spends a submission.
 */
describe("the audit log's public routes, limited per client address", () => {
  let aopd: AopdWithOfficers;
  let base: string;

  beforeAll(async () => {
    aopd = await startAopdWithOfficers("pglite", { readRateLimitPerClient: 3, rateLimitPerClient: 1 });
    base = new URL(aopd.url).origin;
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("answers 429 with Retry-After once the address has spent its reads, on every read route alike", async () => {
    const statuses = [];
    for (const path of [
      "/.well-known/aopd-audit-checkpoint-key",
      "/.well-known/aopd-audit-consistency?from=0&to=0",
      "/.well-known/aopd-receipt-status/4a0e3a2b-1c6d-4f7e-9a41-0c2b9d5e7f10",
    ]) {
      statuses.push((await fetch(`${base}${path}`)).status);
    }
    // Answered (an empty log has no sizes to prove between, no such receipt), and each counted.
    expect(statuses).toEqual([200, 400, 404]);
    const limited = await fetch(`${base}/.well-known/aopd-audit-checkpoint`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toMatch(/Too many reads for this client address/);
    const receipt = await fetch(`${base}/.well-known/aopd-receipt-status/4a0e3a2b-1c6d-4f7e-9a41-0c2b9d5e7f10`);
    expect(receipt.status).toBe(429);
    expect(await receipt.json()).toMatchObject({ error: "rate_limited" });
  });

  it("counts a cosignature as a submission, apart from the reads", async () => {
    const post = () =>
      fetch(`${base}/.well-known/aopd-audit-cosignature`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"checkpoint":"x"}' });
    expect((await post()).status).toBe(400);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many submissions for this client address/);
  });
});
