import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { auditEntryAuthenticationProblem } from "./audit-entry-authentication.js";
import { storedAuditEntryHash } from "./audit-entry-hash.js";
import { auditKeyring } from "./audit-keyring.js";
import { extendAuditTree } from "./audit-tree-store.js";
import { entriesWaitingToBeChained } from "./entries-waiting-to-be-chained.js";

/** Announced by every insert into the trail (migration 0018): there are entries to chain. */
export const auditWritesChannel = "aopd_audit_writes";

/**
 * Entries chained per transaction: bounds the head's lock, the rows read and the statement's
 * parameters (three per entry); more waiting entries take more transactions.
 * @default 1_000
 */
export const chainBatchSize = 1_000;

/**
 * How long a replica's sequencer waits between two runs while entries keep coming: a decision a
 * second or a thousand, each run chains what the last 100 ms committed (dozens of entries, not one),
 * and an entry waits at most this much more for its place.
 * @default 100 // milliseconds
 */
export const chainSpacingMs = 100;

/**
 * Gives the committed, unchained entries of the audit trail their places in the chain, in batches
 * of `batchSize`, until none is left; returns how many it chained. Safe in any number of replicas
 * at once.
 *
 * Threat: an entry that is never chained is an entry `npm run verify-audit` never covers, which is
 * what someone hiding an action would want. So nothing here may skip one. A high-water mark
 * ("chain the entries after insertion N") would: an insertion number taken early can commit after
 * a larger one was chained, and would sit below the mark forever. Instead, as the proof event log
 * numbers its events (migration 0004), each run chains whatever is unchained
 * (`seq IS NULL`): it locks the head row first, and READ COMMITTED gives the statements after the
 * lock a snapshot holding every entry committed before it, so an entry committed late is chained
 * by the next run, after everything chained before it. Entries go in insertion order within a
 * batch, so one transaction's entries, and one proof's successive actions (a later change of a
 * proof is written after the earlier one committed), keep their order.
 *
 * Threat: an entry INSERTed by someone other than aopd (a superuser, a leaked password), in any
 * officer's name and at any time. Each entry's authentication (audit-entry-authentication.ts) is
 * checked before it takes a place: one that fails is never chained but set aside
 * (`aopd_audit_set_aside`, with the reason), reported to `onSetAside` (the metric and the log)
 * and named by `npm run verify-audit`.
 *
 * The head's lock is held by the sequencer only, for a read, the hashing of one batch and one
 * update; writers never wait for it. The hash is `storedAuditEntryHash`, the verifier's.
 */
export async function chainAuditEntries(
  db: Kysely<AopdDatabase>,
  batchSize = chainBatchSize,
  onSetAside: (entries: readonly SetAsideEntry[]) => void = () => {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const { chained, read, setAside, grown } = await db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom("aopd_audit_head").select(["seq", "hash"]).forUpdate().executeTakeFirstOrThrow();
      const waiting = await entriesWaitingToBeChained(trx).orderBy("insertion").limit(batchSize).execute();
      const keyring = auditKeyring();
      const setAside: SetAsideEntry[] = [];
      const entries = waiting.filter((entry) => {
        const problem = auditEntryAuthenticationProblem(keyring, entry);
        if (problem) setAside.push({ insertion: String(entry.insertion), action: entry.action, actorSubject: entry.actor_subject, reason: `it ${problem}` });
        return problem === null;
      });
      if (setAside.length > 0)
        await trx
          .insertInto("aopd_audit_set_aside")
          .values(setAside.map(({ insertion, reason }) => ({ insertion, reason })))
          .execute();
      // The Merkle tree grows with the chain, under the same lock (audit-tree-store.ts); after migration 0020 it catches up with the entries chained before.
      if (entries.length === 0) return { chained: 0, read: waiting.length, setAside, grown: await extendAuditTree(trx, batchSize) };
      let seq = BigInt(head.seq);
      let previousHash = head.hash;
      const links = entries.map((entry) => {
        seq += 1n;
        const link = { insertion: String(entry.insertion), seq: seq.toString(), previousHash, hash: "" };
        link.hash = storedAuditEntryHash(entry, link.seq, previousHash);
        previousHash = link.hash;
        return link;
      });
      const values = sql.join(links.map((link) => sql`(${link.insertion}::bigint, ${link.seq}::bigint, ${link.previousHash}, ${link.hash})`));
      await sql`
        UPDATE aopd_audit_entry AS e SET seq = link.seq, previous_hash = link.previous_hash, hash = link.hash
        FROM (VALUES ${values}) AS link (insertion, seq, previous_hash, hash)
        WHERE e.insertion = link.insertion
      `.execute(trx);
      await trx.updateTable("aopd_audit_head").set({ seq: seq.toString(), hash: previousHash }).execute();
      return { chained: entries.length, read: waiting.length, setAside, grown: await extendAuditTree(trx, batchSize) };
    });
    total += chained;
    if (setAside.length > 0) onSetAside(setAside);
    if (read < batchSize && grown < batchSize) return total;
  }
}

/** An entry the sequencer refused to chain, and why. */
export interface SetAsideEntry {
  /** Its `insertion` (the only name an unchained entry has). */
  insertion: string;
  action: string;
  actorSubject: string;
  reason: string;
}
