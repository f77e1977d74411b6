import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { storedAuditEntryHash } from "./audit-entry-hash.js";

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
 * The head's lock is held by the sequencer only, for a read, the hashing of one batch and one
 * update; writers never wait for it. The hash is `storedAuditEntryHash`, the verifier's.
 */
export async function chainAuditEntries(db: Kysely<AopdDatabase>, batchSize = chainBatchSize): Promise<number> {
  let total = 0;
  for (;;) {
    const chained = await db.transaction().execute(async (trx) => {
      const head = await trx.selectFrom("aopd_audit_head").select(["seq", "hash"]).forUpdate().executeTakeFirstOrThrow();
      const entries = await trx.selectFrom("aopd_audit_entry").selectAll().where("seq", "is", null).orderBy("insertion").limit(batchSize).execute();
      if (entries.length === 0) return 0;
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
      return entries.length;
    });
    total += chained;
    if (chained < batchSize) return total;
  }
}
