import { createHash } from "node:crypto";

/**
 * SHA-256 (hex) of the evidence a customer submitted as text (a signature, a transaction id), as
 * the trail records it: the entry proves which evidence was accepted without the trail holding
 * the evidence itself (the proof row does). A file's hash is the one computed while it streamed in.
 */
export function evidenceSha256(evidence: string): string {
  return createHash("sha256").update(evidence, "utf8").digest("hex");
}
