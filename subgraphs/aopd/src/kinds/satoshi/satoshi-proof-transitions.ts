import type { DtiAsset } from "@compliance-graph/dti-assets";
import { base58 } from "@scure/base";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { decisionRequestOf, type AssessmentInput } from "../../decisions/assessment-input.js";
import { assessProof } from "../../decisions/assess-proof.js";
import type { Decider } from "../../audit/decider.js";
import type { AuditOrigin } from "../../audit/audit-origin.js";
import { isMovedOn, SubmissionRefusal, UnknownProofRefusal } from "../../proofs/proof-refusal.js";
import { changeProofStatus } from "../../proofs/change-proof-status.js";
import { satoshiKind } from "./satoshi-kind.js";

/** Transaction ids as each address family writes them; other families get a shape check. */
const txIdRules: Record<string, { accepts: (txId: string) => boolean; allowed: string }> = {
  bitcoin: { accepts: (txId) => /^[0-9a-fA-F]{64}$/.test(txId), allowed: "64 hexadecimal characters" },
  ethereum: { accepts: (txId) => /^0x[0-9a-fA-F]{64}$/.test(txId), allowed: "0x and 64 hexadecimal characters" },
  tron: { accepts: (txId) => /^[0-9a-fA-F]{64}$/.test(txId), allowed: "64 hexadecimal characters" },
  // A Solana transaction is named by its first signature: 64 bytes in base58.
  solana: {
    accepts: (txId) => /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(txId) && base58.decode(txId).length === 64,
    allowed: "the base58 transaction signature (64 bytes)",
  },
};
const otherTxIds = { accepts: (txId: string) => /^[A-Za-z0-9]{16,128}$/.test(txId), allowed: "16 to 128 letters or digits" };

/** Hexadecimal ids name the same transaction in either case; base58 ones (Solana's) are case-sensitive. */
function sameTxId(a: string, b: string): boolean {
  const hex = /^(0x)?[0-9a-fA-F]+$/;
  return hex.test(a) && hex.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function requireTxId(asset: DtiAsset | undefined, txId: string): string {
  const rule = txIdRules[asset?.addressFamily ?? ""] ?? otherTxIds;
  if (!rule.accepts(txId))
    throw new SubmissionRefusal("invalid_tx_id", `is not a transaction id of ${asset?.name ?? "the asset"}: expected ${rule.allowed}.`, { field: "txId" });
  return txId;
}

/**
 * The columns of a Satoshi proof whose test transaction became known (reported by the customer, or
 * found by the chain watcher on the deposit address): SUBMITTED, never expiring, checked on chain
 * until the due time this clears (the old value, in one UPDATE), at the watcher's next pass.
 */
export function submissionOf(txId: string) {
  return { status: "SUBMITTED" as const, tx_id: txId, due_at: null, chain_check_until: sql<Date>`due_at`, chain_checked_at: null };
}

/**
 * The customer reports the test transaction: PENDING (and not yet due) to SUBMITTED. Idempotent:
 * the same transaction id reported again (a retry after a lost answer, from the portal or the API)
 * gets the proof as it now stands; a different one is refused as the state machine refuses it.
 */
export async function finalizeSatoshiProof(db: Kysely<AopdDatabase>, config: AopdConfig, id: string, txId: string, origin: AuditOrigin): Promise<ProofRow> {
  if (!isUuid(id)) throw UnknownProofRefusal.byId(id);
  const current = await db.selectFrom("aopd_proof").select("asset").where("id", "=", id.toLowerCase()).executeTakeFirst();
  const checkedTxId = requireTxId(current ? config.assets.get(current.asset) : undefined, txId);
  try {
    return await changeProofStatus(db, id, {
      action: "finalized",
      kind: "satoshi",
      from: ["PENDING"],
      beforeDue: true,
      set: submissionOf(checkedTxId),
      audit: { origin, action: "SUBMITTED", details: { evidence: "transaction", txId: checkedTxId } },
    });
  } catch (error) {
    if (!isMovedOn(error)) throw error;
    const now = await db.selectFrom("aopd_proof").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
    if (now?.tx_id !== null && now?.tx_id !== undefined && sameTxId(now.tx_id, checkedTxId)) return now;
    throw error;
  }
}

/** The compliance team assesses the reported transaction: SUBMITTED to VERIFIED or FAILED, recorded as the officer's decision (or proposal, under four eyes). */
export async function assessSatoshiProof(
  db: Kysely<AopdDatabase>,
  config: AopdConfig,
  id: string,
  input: AssessmentInput,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  return assessProof(db, config, decisionRequestOf("satoshi", id, input, decider, requestId, satoshiKind.decisionReasons));
}
