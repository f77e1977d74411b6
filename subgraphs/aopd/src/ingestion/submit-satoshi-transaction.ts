import { ConflictError, UserInputError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase, ProofRow, ProofStatus } from "../database/database-schema.js";
import { ProofStateRefusal, SubmissionRefusal, UnknownProofRefusal } from "../proofs/proof-refusal.js";
import { hashCallbackToken } from "./callback-token.js";
import { customerActor } from "../audit/audit-actor.js";
import { finalizeSatoshiProof } from "./satoshi-proof-transitions.js";

/**
 * The portal's report of a Satoshi proof's test transaction, for the holder of the proof's
 * one-time credential: the very rules of `finalizeSatoshiProof` (same transition, same
 * idempotency), with its refusals as the public routes' codes. Refusals are `ProofRefusal`s.
 */
export async function submitSatoshiTransaction(services: { db: Kysely<AopdDatabase>; config: AopdConfig }, token: string, txId: string, requestId: string): Promise<ProofRow> {
  const proof = await services.db.selectFrom("aopd_proof").select(["id", "kind"]).where("callback_token_hash", "=", hashCallbackToken(token)).executeTakeFirst();
  if (!proof || proof.kind !== "satoshi") throw new UnknownProofRefusal("This link does not belong to a Satoshi proof; ask for a new link.");
  try {
    return await finalizeSatoshiProof(services.db, services.config, proof.id, txId, { actor: customerActor("portal"), requestId });
  } catch (error) {
    if (error instanceof UserInputError) throw new SubmissionRefusal("invalid_tx_id", `The transaction id ${error.message.replace(/^txId: /, "")}`);
    if (error instanceof ConflictError) {
      const status = error.extensions.status as ProofStatus;
      if (status === "PENDING") throw new ProofStateRefusal("expired", "The proof's due time has passed; ask for a new proof.");
      throw new ProofStateRefusal("not_pending", `The proof is ${status}; only a pending proof takes a transaction id.`, status);
    }
    throw error;
  }
}
