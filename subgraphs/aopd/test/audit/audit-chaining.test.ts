import { sql, type KyselyPlugin } from "kysely";
import type { Identity } from "@compliance-graph/identity";
import { pollUntil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntry } from "../../src/audit/append-audit-entry.js";
import { chainAuditEntries } from "../../src/audit/chain-audit-entries.js";
import { selectAuditTrailPage } from "../../src/audit/audit-trail-query.js";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { databaseDrivers } from "../support/test-database.js";

const auditor: Identity = { subject: "5b7d-auditor", client: "compliance-console", username: "auditor", roles: ["proofs:read", "audit:read"] };

/**
 * Entries are written without their place in the chain and chained after commit by the sequencer
 * (audit/chain-audit-entries.ts): what a reader sees of an entry between the two.
 */
describe.each(databaseDrivers)("an audit entry between its commit and its chaining, on %s", (driver) => {
  let aopd: AopdWithOfficers;
  const trail = async (variables: Record<string, unknown>) => {
    const { body } = await aopd.queryAs(
      auditor,
      `query($filter: AopdAuditTrailFilterInput, $after: ID, $limit: Int!) { aopd { auditTrail(filter: $filter, after: $after, limit: $limit) { entries { seq requestId hash } endCursor hasMore } } }`,
      { limit: 1000, ...variables },
    );
    if (body.errors) throw new Error(body.errors[0]!.message);
    return (body.data!.aopd as { auditTrail: unknown }).auditTrail;
  };

  /** Waits for the replica's sequencer (woken by the inserts' NOTIFY) to chain every committed entry. */
  const everyEntryChained = () =>
    pollUntil(
      "every audit entry chained",
      () => verifyAuditTrail(aopd.services.db),
      (verification) => verification.pending === 0,
      { timeoutMs: 60_000, intervalMs: 50 },
    );

  beforeAll(async () => {
    aopd = await startAopdWithOfficers(driver);
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("shows an entry committed but not chained yet, then chains it after commit; verify-audit counts it as pending", async () => {
    const db = aopd.services.db;
    await everyEntryChained();
    const origin = { actor: { subject: auditor.subject, client: auditor.client, username: auditor.username ?? null, system: false }, requestId: "req-pending" };
    const rollback = new Error("rolled back on purpose");
    await expect(
      db.transaction().execute(async (trx) => {
        await appendAuditEntry(trx, { origin, action: "AUDIT_TRAIL_EXPORTED", proofId: null, details: { via: "test", rows: 0 } });
        // Inside its transaction the entry exists without its place: the writer took no lock on the head.
        const entry = await trx.selectFrom("aopd_audit_entry").selectAll().where("request_id", "=", "req-pending").executeTakeFirstOrThrow();
        expect([entry.seq, entry.previous_hash, entry.hash]).toEqual([null, null, null]);
        expect(await verifyAuditTrail(trx)).toMatchObject({ mismatch: null, pending: 1, oldestPendingAt: entry.occurred_at });
        // Only chaining may change it: its content is as fixed as a chained entry's.
        await expect(sql`UPDATE aopd_audit_entry SET details = '{}' WHERE request_id = 'req-pending'`.execute(trx)).rejects.toThrow(
          /append-only: UPDATE refused/,
        );
        throw rollback;
      }),
    ).rejects.toBe(rollback);

    await appendAuditEntry(db, { origin, action: "AUDIT_TRAIL_EXPORTED", proofId: null, details: { via: "test", rows: 1 } });
    const chained = await pollUntil(
      "the committed entry chained by the replica's sequencer",
      () => db.selectFrom("aopd_audit_entry").selectAll().where("request_id", "=", "req-pending").executeTakeFirstOrThrow(),
      (entry) => entry.seq !== null,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    const head = await db.selectFrom("aopd_audit_head").select(["seq", "hash"]).executeTakeFirstOrThrow();
    expect(String(chained.seq)).toBe(String(head.seq));
    expect(chained.hash).toBe(head.hash);
    expect(
      await trail({ filter: { actions: ["AUDIT_TRAIL_EXPORTED"], actorSubject: auditor.subject }, after: String(BigInt(String(head.seq)) - 1n) }),
    ).toMatchObject({
      entries: [{ seq: String(head.seq), requestId: "req-pending", hash: head.hash }],
      endCursor: String(head.seq),
    });
    // A chained entry is chained once: moving it to another place is refused like any other change.
    await expect(sql`UPDATE aopd_audit_entry SET seq = seq + 1000 WHERE request_id = 'req-pending'`.execute(db)).rejects.toThrow(/append-only: UPDATE refused/);
    expect(await verifyAuditTrail(db)).toMatchObject({ mismatch: null, pending: 0, oldestPendingAt: null });
  });

  it("lists unchained entries at the end of the page that reaches the chain's end, without moving the cursor past them", async () => {
    const db = aopd.services.db;
    await everyEntryChained();
    const end = String((await db.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow()).seq);
    const origin = { actor: { subject: "pager", client: "tests", username: null, system: false }, requestId: null };
    const rollback = new Error("rolled back on purpose");
    await expect(
      db.transaction().execute(async (trx) => {
        await appendAuditEntry(trx, { origin, action: "AUDIT_TRAIL_EXPORTED", proofId: null, details: { rows: 2 } });
        // The page reads in this transaction, where the entry is committed as far as it can see.
        const page = await selectAuditTrailPage(trx, { filter: { actorSubject: "pager" }, after: end, limit: 10 });
        expect(page.entries.map((entry) => [entry.seq, entry.details])).toEqual([[null, `{"rows":2}`]]);
        expect(page).toMatchObject({ endCursor: end, hasMore: false });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  // On the server only: PGlite's one connection is the reader's until its result is in, so the
  // sequencer cannot run in the middle of a read there.
  it.skipIf(driver === "pglite")("misses no committed entry when the sequencer chains it in the middle of a page's read", async () => {
    const db = aopd.services.db;
    await everyEntryChained();
    const start = String((await db.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow()).seq);
    const origin = { actor: { subject: "racer", client: "tests", username: null, system: false }, requestId: null };
    // The head's lock held, the replica's sequencer waits: the entry stays unchained until the read has begun.
    let releaseHead!: () => void;
    const headReleased = new Promise<void>((resolve) => (releaseHead = resolve));
    let headLocked!: () => void;
    const locked = new Promise<void>((resolve) => (headLocked = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await trx.selectFrom("aopd_audit_head").select("seq").forUpdate().execute();
      headLocked();
      await headReleased;
    });
    await locked;
    await appendAuditEntry(db, { origin, action: "AUDIT_TRAIL_EXPORTED", proofId: null, details: { raced: true } });
    let chainedMidRead = false;
    // The entry is chained right after the page's first result reaches Kysely, as a busy replica would chain it.
    const chainAfterFirstResult: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (!chainedMidRead) {
          releaseHead();
          await holder;
          await chainAuditEntries(db);
          const entry = await db.selectFrom("aopd_audit_entry").select("seq").where("actor_subject", "=", "racer").executeTakeFirstOrThrow();
          chainedMidRead = entry.seq !== null;
        }
        return args.result;
      },
    };
    const page = await selectAuditTrailPage(db.withPlugin(chainAfterFirstResult), { filter: { actorSubject: "racer" }, after: start, limit: 10 }).finally(
      async () => {
        // Whatever happened, the lock goes, or the suite's database would never close.
        releaseHead();
        await holder;
      },
    );
    expect(chainedMidRead).toBe(true);
    expect(page.entries.map((entry) => entry.details)).toEqual([`{"raced":true}`]);
  });
});
