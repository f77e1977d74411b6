import { createHash } from "node:crypto";
import type { ProofRow } from "../database/database-schema.js";

/**
 * The SHA-256 of the evidence a proof was decided on, as a receipt states it (`sha256:<hex>`), so
 * that whoever holds the evidence can show it is the evidence the receipt speaks of, while the
 * receipt itself carries none of it (docs/receipts.md, "Evidence hash"):
 *
 * - media: the uploaded file's own SHA-256 (`sha256` of the proof), computed as its bytes arrived;
 * - signature: the SHA-256 of the UTF-8 JSON array `["signature", address, message, signature, xpub]`
 *   (`xpub` null when none was given), written by `JSON.stringify` without spaces;
 * - Satoshi: the same of `["satoshi", asset, senderAddress, depositAddress, amount, txId]`, the
 *   amount as its decimal digits.
 *
 * The arrays are of the proof's own values, as `proofs` returns them, so anyone can recompute them.
 */
export function evidenceHashOf(row: ProofRow): string {
  if (row.kind === "media") return `sha256:${row.media_sha256 ?? ""}`;
  const evidence =
    row.kind === "signature"
      ? ["signature", row.address, row.message, row.signature, row.xpub]
      : ["satoshi", row.asset, row.address, row.deposit_address, row.amount === null ? null : String(row.amount), row.tx_id];
  return `sha256:${createHash("sha256").update(JSON.stringify(evidence), "utf8").digest("hex")}`;
}
