import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { latestAuditCheckpoint } from "../audit/audit-checkpoints.js";
import { auditEntryInclusion } from "../audit/audit-entry-inclusion.js";

/**
 * A receipt's claim `log` (docs/receipts.md): the trail entry that decided the proof, its RFC 9162
 * inclusion proof and the signed checkpoint it is proven in, so that anyone holding the log's
 * verifier key checks offline that the decision is in the log the provider committed to.
 */
export interface ReceiptLogClaim {
  /** The entry's canonical JSON text. */
  entry: string;
  leafIndex: number;
  treeSize: number;
  /** Base64 SHA-256 hashes, leaf to root. */
  auditPath: string[];
  /** The whole signed note of the checkpoint at `treeSize`. */
  checkpoint: string;
}

/** The trail's actions that decide a proof: an officer's (alone or confirmed), the chain watcher's, a verified signature's submission. */
export const decidingAuditActions = ["DECIDED", "CONFIRMED", "CHAIN_CHECKED", "SUBMITTED"] as const;

/**
 * How long issuing a receipt waits for the deciding entry to be chained and covered by a signed
 * checkpoint (the sequencer chains within about 100 ms and signs at least every
 * `AOPD_CHECKPOINT_INTERVAL_MS`); past it, the receipt is issued without `log`.
 * @default 5_000 // milliseconds
 */
export const receiptLogWaitMs = 5_000;

/** The `log` claim for a proof's latest deciding entry, or null when none is in a signed checkpoint within `waitMs`. */
export async function receiptLogClaim(db: Kysely<AopdDatabase>, proofId: string, waitMs = receiptLogWaitMs): Promise<ReceiptLogClaim | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const entry = await db
      .selectFrom("aopd_audit_entry")
      .select(["seq", "insertion"])
      .where("proof_id", "=", proofId)
      .where("action", "in", decidingAuditActions)
      .orderBy("insertion", "desc")
      .limit(1)
      .executeTakeFirst();
    if (entry && entry.seq !== null) {
      const latest = await latestAuditCheckpoint(db);
      if (latest && latest.treeSize >= Number(entry.seq)) {
        const inclusion = await auditEntryInclusion(db, String(entry.seq), latest.treeSize);
        return {
          entry: inclusion.entry,
          leafIndex: inclusion.leafIndex,
          treeSize: inclusion.treeSize,
          auditPath: inclusion.auditPath,
          checkpoint: inclusion.checkpoint ?? latest.note,
        };
      }
    }
    if (!entry || Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
