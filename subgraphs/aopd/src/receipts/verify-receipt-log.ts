import { parseCheckpoint } from "../audit/audit-checkpoints.js";
import { leafHash, verifyInclusion } from "../audit/merkle-tree.js";
import { noteSignedBy, parseNote, type NoteVerifier } from "../audit/signed-note.js";
import { decidingAuditActions, type ReceiptLogClaim } from "./receipt-log-claim.js";

/** Why a receipt's `log` claim does not hold. */
export class ReceiptLogError extends Error {
  readonly code = "log_not_proven";
}

/**
 * Checks a receipt's `log` claim offline: the checkpoint carries the log's signature (its
 * verifier key, from `/.well-known/aopd-audit-checkpoint-key`), it is of the claim's tree size,
 * the entry's leaf hash with the audit path gives its root (RFC 9162 2.1.3.2), and the entry is a
 * deciding action on the receipt's proof. Returns the checkpoint's size; throws `ReceiptLogError`.
 */
export function verifyReceiptLog(log: ReceiptLogClaim, logKey: NoteVerifier, proofId: string): { treeSize: number; seq: number } {
  let checkpoint;
  try {
    checkpoint = parseCheckpoint(log.checkpoint);
    if (!noteSignedBy(parseNote(log.checkpoint), logKey))
      throw new ReceiptLogError(`its checkpoint does not carry the signature of the log's key ${logKey.name}`);
  } catch (error) {
    throw error instanceof ReceiptLogError ? error : new ReceiptLogError(`its checkpoint is not a signed checkpoint: ${(error as Error).message}`);
  }
  if (checkpoint.treeSize !== log.treeSize) throw new ReceiptLogError(`its checkpoint is of tree size ${checkpoint.treeSize}, the proof of ${log.treeSize}`);
  const path = log.auditPath.map((hash) => Buffer.from(hash, "base64"));
  if (!verifyInclusion(leafHash(log.entry), log.leafIndex, log.treeSize, path, checkpoint.rootHash))
    throw new ReceiptLogError("its entry is not included in the checkpoint's tree: the audit path does not lead to the checkpoint's root");
  let entry: { seq?: unknown; proofId?: unknown; action?: unknown };
  try {
    entry = JSON.parse(log.entry) as typeof entry;
  } catch {
    throw new ReceiptLogError("its entry is not JSON");
  }
  if (entry.seq !== log.leafIndex + 1) throw new ReceiptLogError(`its entry's seq ${String(entry.seq)} is not its leaf's place ${log.leafIndex + 1}`);
  if (entry.proofId !== proofId) throw new ReceiptLogError("its entry is about another proof than the receipt");
  if (!(decidingAuditActions as readonly unknown[]).includes(entry.action))
    throw new ReceiptLogError(`its entry records ${String(entry.action)}, not a decision`);
  return { treeSize: log.treeSize, seq: log.leafIndex + 1 };
}
