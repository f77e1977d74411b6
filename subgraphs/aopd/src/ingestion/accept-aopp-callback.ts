import { ConflictError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { findXpubDerivation, OwnershipInputError, verifyOwnershipSignature } from "../ownership/index.js";
import { changeProofStatus } from "./change-proof-status.js";
import { hashCallbackToken } from "./callback-token.js";

/** What a wallet posts to the callback URL (AOPP version 0). */
export interface AoppCallbackBody {
  version: number;
  address: string;
  signature: string;
  xpub?: string;
}

export type CallbackOutcome =
  | { kind: "verified"; proof: ProofRow }
  | { kind: "unknown-token" }
  | { kind: "bad-request"; reason: string }
  | { kind: "refused"; reason: string };

/** Reads and checks the body's shape; undefined means it is acceptable. */
export function callbackBodyProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "The body must be a JSON object.";
  const { version, address, signature, xpub } = body as Record<string, unknown>;
  if (version !== 0) return "Only AOPP version 0 is supported.";
  if (typeof address !== "string" || address.length === 0 || address.length > 128) return "address must be a string of 1 to 128 characters.";
  if (typeof signature !== "string" || signature.length === 0 || signature.length > 4_096) return "signature must be a base64 string of at most 4096 characters.";
  if (xpub !== undefined && (typeof xpub !== "string" || xpub.length > 200)) return "xpub must be a string of at most 200 characters.";
  return undefined;
}

function sameAddress(family: string | null, a: string, b: string): boolean {
  // Ethereum addresses compare without their checksum case; bech32 addresses are case-insensitive
  // by definition; base58 ones are case-sensitive.
  if (family === "ethereum" || /^(bc|tb|bcrt)1/i.test(a)) return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

/**
 * Verifies a wallet's signature for the proof behind a callback token and, when it proves control
 * of the expected address, marks the proof VERIFIED. The status change is conditional on the
 * proof still being pending and not yet due, so of many concurrent callbacks exactly one wins.
 */
export async function acceptAoppCallback(db: Kysely<AopdDatabase>, config: AopdConfig, token: string, body: AoppCallbackBody): Promise<CallbackOutcome> {
  const proof = await db.selectFrom("aopd_proof").selectAll().where("callback_token_hash", "=", hashCallbackToken(token)).executeTakeFirst();
  if (!proof || proof.kind !== "signature") return { kind: "unknown-token" };
  if (proof.status !== "PENDING") return { kind: "refused", reason: `The proof is ${proof.status}; only a pending proof accepts a signature.` };
  if (proof.due_at && proof.due_at.getTime() <= Date.now()) return { kind: "refused", reason: "The proof has expired." };

  const family = config.assets.get(proof.asset)?.addressFamily ?? null;
  if (family !== "bitcoin" && family !== "ethereum") return { kind: "refused", reason: "The proof's asset cannot be proven by signature." };
  if (!sameAddress(family, body.address, proof.address)) return { kind: "bad-request", reason: "The address differs from the address the proof expects." };

  const verification = verifyOwnershipSignature({
    assetFamily: family,
    address: body.address,
    message: proof.message ?? "",
    signature: body.signature,
    expectedFormat: family === "bitcoin" && proof.format !== "ANY" && proof.format !== "STANDARD" ? proof.format : null,
    network: family === "bitcoin" ? config.bitcoinNetwork : null,
  });
  if (!verification.ok) return { kind: "bad-request", reason: verification.reason };

  if (proof.xpub_required && body.xpub === undefined) return { kind: "bad-request", reason: "This proof requires the xpub the address derives from." };
  if (body.xpub !== undefined) {
    try {
      if (!findXpubDerivation({ xpub: body.xpub, address: body.address, maxIndex: config.xpubMaxIndex })) {
        return { kind: "bad-request", reason: `The address does not derive from the xpub within index ${config.xpubMaxIndex} of the receive or change chain.` };
      }
    } catch (error) {
      if (error instanceof OwnershipInputError) return { kind: "bad-request", reason: error.message };
      throw error;
    }
  }

  try {
    const verified = await changeProofStatus(db, proof.id, {
      action: "verified",
      kind: "signature",
      from: ["PENDING"],
      beforeDue: true,
      // The token hash stays, so a later callback learns the proof is verified rather than unknown.
      set: { status: "VERIFIED", signature: body.signature, xpub: body.xpub ?? null, due_at: null },
    });
    return { kind: "verified", proof: verified };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: "refused", reason: "The proof is no longer pending." };
    throw error;
  }
}
