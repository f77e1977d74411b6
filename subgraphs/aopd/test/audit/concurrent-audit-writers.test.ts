import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { appendAuditEntry } from "../../src/audit/append-audit-entry.js";
import { chainAuditEntries } from "../../src/audit/chain-audit-entries.js";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { requestMediaProof } from "../../src/kinds/media/request-media-proof.js";
import { openTestDatabase } from "../support/test-database.js";

const perReplica = 60;

/**
 * Two replicas of aopd on one PostgreSQL server: two pools, each with several connections, appending
 * at once and chaining at once. The sequencers, whichever runs, must make the entries one chain,
 * without a gap, a fork (two entries on one predecessor) or a lost entry.
 */
describe("two replicas appending to one audit trail at once", () => {
  let first: Database & { databaseUrl?: string };
  let second: Database;

  beforeAll(async () => {
    first = await openTestDatabase("postgres", "auditwriters");
    second = await openDatabase({ databaseUrl: first.databaseUrl!, maxConnections: 4 });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("keeps one unbroken chain of every entry both appended", async () => {
    const config = aopdConfigFromEnv({});
    const replica = async (database: Database, name: string) => {
      const origin = { actor: { subject: `officer-${name}`, client: "tests", username: name, system: false }, requestId: null };
      // Each replica keeps four appends in flight: two proofs requested (their entries in the proofs'
      // transactions) and two entries on their own; after each, the lane runs the sequencer, as a
      // replica's NOTIFY would, so both replicas' sequencers compete for the head all along.
      const work = Array.from({ length: perReplica }, (_unused, index) => async () => {
        if (index % 2 === 0)
          await requestMediaProof(
            database.db,
            config,
            { customerId: `C-${name}-${index}`, asset: "DTI4H95J0R2X", expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" },
            { origin },
          );
        else await appendAuditEntry(database.db, { origin, action: "MEDIA_DOWNLOADED", proofId: null, details: { index } });
      });
      const lanes = Array.from({ length: 4 }, async (_unused, lane) => {
        for (let index = lane; index < work.length; index += 4) {
          await work[index]!();
          await chainAuditEntries(database.db, 3);
        }
      });
      await Promise.all(lanes);
    };
    await Promise.all([replica(first, "a"), replica(second, "b")]);
    // Small batches above leave entries behind when lanes race; one last run chains the rest.
    await chainAuditEntries(second.db);

    const verification = await verifyAuditTrail(first.db, { batchSize: 16 });
    expect(verification).toEqual({ verified: 2 * perReplica, headSeq: String(2 * perReplica), mismatch: null, pending: 0, oldestPendingAt: null });
    const byActor = await first.db
      .selectFrom("aopd_audit_entry")
      .select(["actor_subject", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("actor_subject")
      .orderBy("actor_subject")
      .execute();
    expect(byActor.map((row) => [row.actor_subject, Number(row.n)])).toEqual([
      ["officer-a", perReplica],
      ["officer-b", perReplica],
    ]);
    // No fork: every entry's predecessor hash is used once.
    const forks = await first.db
      .selectFrom("aopd_audit_entry")
      .select("previous_hash")
      .groupBy("previous_hash")
      .having((eb) => eb.fn.countAll(), ">", 1)
      .execute();
    expect(forks).toEqual([]);
  }, 120_000);

  it("never skips an entry whose insertion number was taken early and committed late", async () => {
    const origin = { actor: { subject: "late-writer", client: "tests", username: null, system: false }, requestId: null };
    const headBefore = String((await first.db.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow()).seq);
    let releaseEarly!: () => void;
    const early = new Promise<void>((resolve) => (releaseEarly = resolve));
    let inserted!: () => void;
    const insertedEarly = new Promise<void>((resolve) => (inserted = resolve));
    // The early writer takes its insertion number, then waits uncommitted...
    const earlyWriter = first.db.transaction().execute(async (trx) => {
      await appendAuditEntry(trx, { origin, action: "MEDIA_DOWNLOADED", proofId: null, details: { which: "early" } });
      inserted();
      await early;
    });
    await insertedEarly;
    // ...while a later writer (a larger insertion number) commits and is chained.
    await appendAuditEntry(second.db, { origin, action: "MEDIA_DOWNLOADED", proofId: null, details: { which: "late" } });
    expect(await chainAuditEntries(second.db)).toBe(1);
    releaseEarly();
    await earlyWriter;
    expect(await chainAuditEntries(first.db)).toBe(1);

    const entries = await first.db
      .selectFrom("aopd_audit_entry")
      .select(["seq", "insertion", "details"])
      .where("actor_subject", "=", "late-writer")
      .orderBy("seq")
      .execute();
    expect(entries.map((entry) => [String(entry.seq), entry.details])).toEqual([
      [String(BigInt(headBefore) + 1n), `{"which":"late"}`],
      [String(BigInt(headBefore) + 2n), `{"which":"early"}`],
    ]);
    // Chained in commit order, not insertion order: the early number got the later place.
    expect(BigInt(entries[1]!.insertion)).toBeLessThan(BigInt(entries[0]!.insertion));
    expect(await verifyAuditTrail(first.db)).toMatchObject({ mismatch: null, pending: 0 });
  }, 120_000);
});
