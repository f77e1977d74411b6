import { sql, type Kysely } from "kysely";
import type { AopdDatabase, AuditEntryRow } from "../database/database-schema.js";
import { genesisHash, storedAuditEntryHash } from "./audit-entry-hash.js";

/**
 * Entries read per query. Memory holds one batch (about 1 KB an entry), whatever the trail's length.
 * @default 5_000
 */
export const verifyBatchSize = 5_000;

/** The first place the chain does not hold: the entry named, and what is wrong with it. */
export interface AuditMismatch {
  /** The `seq` the chain expected at this place (for a missing entry, the one missing). */
  seq: string;
  problem: string;
}

export interface AuditVerification {
  /** Entries whose hashes matched, from the first. */
  verified: number;
  /** The head row's `seq`: how many entries the chain says it has. */
  headSeq: string;
  mismatch: AuditMismatch | null;
  /**
   * Entries committed but not chained yet when the walk ended (the sequencer chains them within
   * about a second): not covered by the chain, so neither verified nor broken.
   */
  pending: number;
  /** When the oldest of them was recorded; null when none waits. One long ago means no sequencer runs. */
  oldestPendingAt: Date | null;
}

/**
 * Walks the audit trail from its first entry in `seq` order, in batches (keyset, so each costs the
 * same however far along), recomputing each entry's hash over its content and the hash before it.
 * Stops at the first entry that does not match and names it: an edited entry (its hash no longer
 * covers its content), a removed one (a gap in `seq`, or a tail shorter than the head says), a
 * moved one (its `previous_hash` is not its predecessor's hash). `onProgress` hears the count after
 * each batch.
 *
 * The sequencer keeps chaining while the walk runs: the walk covers the chain up to the head it
 * read first, then checks, in one statement (one snapshot), that no chained entry lies beyond the
 * head as it stands then. Unchained entries are counted as pending, not judged.
 */
export async function verifyAuditTrail(
  db: Kysely<AopdDatabase>,
  options: { batchSize?: number; onProgress?: (verified: number) => void } = {},
): Promise<AuditVerification> {
  const batchSize = options.batchSize ?? verifyBatchSize;
  const { seq: headText, hash: headHash } = await db.selectFrom("aopd_audit_head").select(["seq", "hash"]).executeTakeFirstOrThrow();
  const head = { seq: String(headText), hash: headHash };
  const headSeq = BigInt(head.seq);
  let expected = 1n;
  let previousHash = genesisHash;
  let verified = 0;
  let pending = { pending: 0, oldestPendingAt: null as Date | null };
  const result = (mismatch: AuditMismatch | null): AuditVerification => ({ verified, headSeq: head.seq, mismatch, ...pending });
  for (;;) {
    const batch = await db
      .selectFrom("aopd_audit_entry")
      .selectAll()
      .where("seq", ">=", expected.toString())
      .where("seq", "<=", head.seq)
      .orderBy("seq")
      .limit(batchSize)
      .execute();
    for (const entry of batch) {
      const problem = problemOf(entry, expected, previousHash);
      if (problem) return result({ seq: expected.toString(), problem });
      previousHash = entry.hash!; // chained entries hold all three chain columns (migration 0018's check)
      expected += 1n;
      verified += 1;
    }
    options.onProgress?.(verified);
    if (batch.length < batchSize) break;
  }
  const last = expected - 1n;
  const { rows } = await sql<{ head_seq: string; last_seq: string | null; pending: string; oldest_pending_at: Date | null }>`
    SELECT (SELECT seq::text FROM aopd_audit_head) AS head_seq, (SELECT max(seq)::text FROM aopd_audit_entry) AS last_seq,
      count(*)::text AS pending, min(occurred_at) AS oldest_pending_at
    FROM aopd_audit_entry WHERE seq IS NULL
  `.execute(db);
  const now = rows[0]!;
  pending = { pending: Number(now.pending), oldestPendingAt: now.oldest_pending_at };
  if (last < headSeq) return result({ seq: expected.toString(), problem: `is missing: the trail ends at ${last}, its head names ${head.seq}` });
  if (now.last_seq !== null && BigInt(now.last_seq) > BigInt(now.head_seq)) {
    return result({ seq: (BigInt(now.head_seq) + 1n).toString(), problem: `is beyond the head (${now.head_seq}): appended outside the chain` });
  }
  if (head.hash !== previousHash) return result({ seq: head.seq, problem: "does not hash to the head's hash" });
  return result(null);
}

function problemOf(entry: AuditEntryRow, expected: bigint, previousHash: string): string | null {
  // bigint: a string from pg, a number from PGlite; the hash covers its decimal digits.
  const seq = String(entry.seq);
  if (BigInt(seq) !== expected) return `is missing: the entry after ${expected - 1n} is ${entry.seq}`;
  if (entry.previous_hash !== previousHash) return `does not follow its predecessor: its previous_hash is not the hash of entry ${expected - 1n}`;
  const recomputed = storedAuditEntryHash(entry, seq, previousHash);
  if (recomputed !== entry.hash) return "has been changed: its content does not hash to its hash";
  return null;
}
