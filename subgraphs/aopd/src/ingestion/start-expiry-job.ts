import type { Logger } from "@compliance-graph/server-kit";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { expirePendingProofs } from "./expire-pending-proofs.js";

/**
 * Runs `expirePendingProofs` every `intervalSeconds` in this replica, without anyone asking. A
 * run that finds a full batch runs again at once, so a backlog drains quickly. Returns the stop
 * function, which waits for a running pass to finish.
 */
export function startExpiryJob(db: Kysely<AopdDatabase>, intervalSeconds: number, logger: Logger): () => Promise<void> {
  if (intervalSeconds <= 0) return async () => {};
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const batchSize = 1_000;
  const pass = async () => {
    try {
      let expired: number;
      do {
        expired = (await expirePendingProofs(db, batchSize)).length;
        if (expired > 0) logger.info({ expired }, "pending proofs expired");
      } while (expired === batchSize && !stopped);
    } catch (error) {
      logger.error({ err: error }, "expiring pending proofs failed; retrying at the next interval");
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalSeconds * 1_000);
    timer.unref();
  };
  running = pass().finally(schedule);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
