import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "./database-schema.js";

/** The database did not answer the readiness check in time. */
export class DatabaseNotReadyError extends Error {
  readonly code = "ETIMEDOUT";

  constructor(timeoutMs: number) {
    super(`The database did not answer the readiness check within ${timeoutMs} ms.`);
    this.name = "DatabaseNotReadyError";
  }
}

/**
 * The readiness check of the database: `SELECT 1`, answered within `timeoutMs` or failed with
 * `DatabaseNotReadyError`, so that `/health/ready` says 503 while the database is silent instead of
 * hanging like it (a probe that times out tells the orchestrator less, later). Checks that arrive
 * while one is running share it: however often the probe comes, at most one connection of the pool
 * waits on a silent database for readiness.
 */
export function databaseReadiness(db: Kysely<AopdDatabase>, timeoutMs: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= sql`SELECT 1`
      .execute(db)
      .then(() => undefined)
      .finally(() => {
        running = undefined;
      });
    const check = running;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseNotReadyError(timeoutMs)), timeoutMs);
    });
    return Promise.race([check, expired]).finally(() => clearTimeout(timer));
  };
}
