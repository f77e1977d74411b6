import { createHash } from "node:crypto";
import type { AuditLogConfig } from "./audit-log-config.js";
import { noteKeyOfSeed, parseNoteSigner, type NoteSigner } from "./signed-note.js";

/** The development log's origin (its checkpoint key's name): `.invalid`, so it names no real deployment. */
export const developmentCheckpointOrigin = "dev.compliance-graph.invalid/aopd-audit";

/**
 * The key checkpoints are signed with, from `AOPD_CHECKPOINT_KEY`; its name is the log's origin.
 *
 * Threat: a checkpoint is this deployment's commitment to the whole trail up to its size; whoever
 * holds the key can commit to a rewritten one. The key lives outside the database, and production
 * refuses to start without it rather than sign with the development key, which is derived from a
 * published text (so that a development aopd and its commands agree on it without configuration).
 */
export function loadCheckpointSigner(config: Pick<AuditLogConfig, "checkpointKey">, production: boolean): { signer: NoteSigner; development: boolean } {
  if (config.checkpointKey === undefined) {
    if (production) {
      throw new Error(
        "aopd refuses to start in production without AOPD_CHECKPOINT_KEY: checkpoints would be signed with the development key, which anyone can read. " +
          "Set it to a signed-note Ed25519 private key named by the log's origin (PRIVATE+KEY+<origin>+...); see docs/audit-transparency.md.",
      );
    }
    const seed = createHash("sha256").update("compliance-graph aopd development checkpoint key (not secret)").digest();
    return { signer: parseNoteSigner(noteKeyOfSeed(developmentCheckpointOrigin, seed), "the development checkpoint key"), development: true };
  }
  const signer = parseNoteSigner(config.checkpointKey, "AOPD_CHECKPOINT_KEY");
  if (production && signer.name === developmentCheckpointOrigin)
    throw new Error(`AOPD_CHECKPOINT_KEY: the name ${developmentCheckpointOrigin} marks the development key, which production refuses.`);
  return { signer, development: false };
}
