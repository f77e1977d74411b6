import type { Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { UnknownProofRefusal } from "../../proofs/proof-refusal.js";
import { hashCallbackToken } from "../../ingestion/callback-token.js";
import { customerActor } from "../../audit/audit-actor.js";
import { finalizeSatoshiProof } from "./satoshi-proof-transitions.js";

/**
 * The portal's report of a Satoshi proof's test transaction, for the holder of the proof's
 * one-time credential: the very rules of `finalizeSatoshiProof` (same transition, same
 * idempotency, the same `ProofRefusal`s, which the public routes answer by their code).
 */
export async function submitSatoshiTransaction(
  services: { db: Kysely<AopdDatabase>; config: AopdConfig },
  token: string,
  txId: string,
  requestId: string,
): Promise<ProofRow> {
  const proof = await services.db
    .selectFrom("aopd_proof")
    .select(["id", "kind"])
    .where("callback_token_hash", "=", hashCallbackToken(token))
    .executeTakeFirst();
  if (!proof || proof.kind !== "satoshi") throw new UnknownProofRefusal("This link does not belong to a Satoshi proof; ask for a new link.");
  return finalizeSatoshiProof(services.db, services.config, proof.id, txId, { actor: customerActor("portal"), requestId });
}
