import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { CheckpointForkError, signAuditCheckpoint } from "./audit-checkpoints.js";
import { chainAuditEntries, chainBatchSize, type SetAsideEntry } from "./chain-audit-entries.js";
import type { NoteSigner } from "./signed-note.js";

/**
 * One run of a replica's audit sequencer: chains what committed (setting aside what does not
 * authenticate), grows the Merkle tree with it, then signs a checkpoint when one is due
 * (`signAuditCheckpoint`). A tree that does not extend the last checkpoint is reported to
 * `onFork`, not thrown: the chaining goes on, the checkpoints stop until someone looks.
 */
export async function sequenceAuditLog(
  db: Kysely<AopdDatabase>,
  options: {
    signer: NoteSigner;
    checkpointIntervalMs: number;
    onSetAside: (entries: readonly SetAsideEntry[]) => void;
    onFork: (error: CheckpointForkError) => void;
  },
): Promise<number> {
  const chained = await chainAuditEntries(db, chainBatchSize, options.onSetAside);
  try {
    await signAuditCheckpoint(db, options.signer, { minIntervalMs: options.checkpointIntervalMs });
  } catch (error) {
    if (!(error instanceof CheckpointForkError)) throw error;
    options.onFork(error);
  }
  return chained;
}
