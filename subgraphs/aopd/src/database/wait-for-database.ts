import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "./database-schema.js";
import type { Logger } from "@compliance-graph/process-shell";

/** The database did not answer within the start-up limit; the process should exit and be restarted. */
export class DatabaseStartupTimeoutError extends Error {
  readonly code = "DATABASE_STARTUP_TIMEOUT";

  constructor(limitMs: number, attempts: number, lastError: unknown) {
    super(`The database did not answer within ${limitMs} ms of start-up (${attempts} attempts; AOPD_DB_STARTUP_TIMEOUT_MS).`, { cause: lastError });
    this.name = "DatabaseStartupTimeoutError";
  }
}

/** First pause between attempts, doubled after each up to `maxDelayMs`. */
const firstDelayMs = 250;
const maxDelayMs = 5_000;

/**
 * Waits until the database answers `SELECT 1`, trying again with backoff (250 ms doubling to 5 s)
 * and one warning line per failed attempt, for up to `limitMs`. Each attempt is bounded by the
 * pool's own timeouts, so a database that accepts connections and then says nothing costs one
 * attempt, not a hang. Past the limit it throws `DatabaseStartupTimeoutError`: a replica that
 * cannot reach its database should exit non-zero, so that the orchestrator reports and restarts it,
 * rather than wait unseen.
 */
export async function waitForDatabase(db: Kysely<AopdDatabase>, options: { limitMs: number; logger: Logger }): Promise<void> {
  const deadline = Date.now() + options.limitMs;
  let delayMs = firstDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sql`SELECT 1`.execute(db);
      if (attempt > 1) options.logger.info({ attempt }, "the database answers");
      return;
    } catch (error) {
      const remainingMs = deadline - Date.now();
      const reason = error instanceof Error ? error.message : String(error);
      if (remainingMs <= 0) throw new DatabaseStartupTimeoutError(options.limitMs, attempt, error);
      const waitMs = Math.min(delayMs, remainingMs);
      options.logger.warn({ attempt, reason, retryInMs: waitMs, remainingMs }, "the database does not answer yet; trying again");
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}
