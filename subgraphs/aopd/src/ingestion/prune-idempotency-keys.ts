import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/**
 * Deletes expired idempotency keys, `batchSize` at a time in short statements. Expired records
 * already answer nothing (lookups ask for `expires_at > now()`, and the next request with the key
 * takes the record over); pruning bounds the table and drops the salts the keys' credentials were
 * derived with. Safe on any number of replicas at once: each deletes what it finds. Returns how many
 * it deleted.
 */
export async function pruneIdempotencyKeys(db: Kysely<AopdDatabase>, batchSize = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { numAffectedRows } = await sql`
      DELETE FROM aopd_idempotent_request WHERE ctid IN (
        SELECT ctid FROM aopd_idempotent_request WHERE expires_at <= now() LIMIT ${batchSize}
      )
    `.execute(db);
    const deleted = Number(numAffectedRows ?? 0);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
