import type { Kysely } from "kysely";
import type { AopdDatabase } from "./database-schema.js";

/** Runs `work` in the caller's transaction when `db` is one, else in a transaction of its own. */
export function inTransaction<T>(db: Kysely<AopdDatabase>, work: (trx: Kysely<AopdDatabase>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
