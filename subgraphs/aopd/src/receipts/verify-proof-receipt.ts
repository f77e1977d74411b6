import { errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { ProofReceiptStatement } from "./proof-receipt-claims.js";
import type { ReceiptLogClaim } from "./receipt-log-claim.js";
import { receiptAlgorithm } from "./receipt-signing-keys.js";
import { receiptType } from "./receipt-signer.js";

/** Why a receipt does not verify, as a stable code (for `switch`) and a sentence. */
export class ReceiptVerificationError extends Error {
  constructor(
    readonly code:
      | "malformed"
      | "wrong_algorithm"
      | "unknown_key"
      | "bad_signature"
      | "expired"
      | "wrong_issuer"
      | "wrong_type"
      | "key_set_unavailable"
      | "issued_in_future",
    message: string,
  ) {
    super(message);
    this.name = "ReceiptVerificationError";
  }
}

export interface VerifiedProofReceipt {
  keyId: string;
  issuer: string;
  receiptId: string;
  issuedAt: Date;
  expiresAt: Date;
  statement: ProofReceiptStatement;
  /** The path of its public status (`/.well-known/aopd-receipt-status/<jti>`); absent in receipts issued before statuses. */
  statusPath: string | undefined;
  /** The claim `log`, unchecked here (verify-receipt-log.ts checks it against the log's key); null when absent. */
  log: ReceiptLogClaim | null;
}

/** How far a receipt's `iat` may lie ahead of the verifier's clock (clock skew), in seconds. */
export const maxIssuedAtSkewSeconds = 60;

/**
 * Verifies a receipt against a key set: ES256 only (an `alg` of `none` or HMAC is refused, so a
 * verifier's key cannot be turned into a shared secret), the receipt type, the key its `kid`
 * names, `exp`, and `iss` when `issuer` is given. The same checks as the jose snippet in
 * docs/receipts.md, with the failures named.
 */
export async function verifyProofReceipt(jws: string, keys: JWTVerifyGetKey, options: { issuer?: string; now?: Date } = {}): Promise<VerifiedProofReceipt> {
  let verified;
  try {
    verified = await jwtVerify(jws.trim(), keys, {
      algorithms: [receiptAlgorithm],
      typ: receiptType,
      requiredClaims: ["iss", "sub", "jti", "iat", "exp", "proof"],
      ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
      ...(options.now ? { currentDate: options.now } : {}),
    });
  } catch (error) {
    throw explained(error);
  }
  const { payload, protectedHeader } = verified;
  // A receipt "issued" in the future was signed with a wrong clock or made to outlive its validity.
  const nowSeconds = (options.now ?? new Date()).getTime() / 1_000;
  if (Number(payload.iat) > nowSeconds + maxIssuedAtSkewSeconds) {
    throw new ReceiptVerificationError(
      "issued_in_future",
      `It says it was issued at ${new Date(Number(payload.iat) * 1_000).toISOString()}, more than ${maxIssuedAtSkewSeconds} s after this clock's now.`,
    );
  }
  return {
    keyId: String(protectedHeader.kid),
    issuer: String(payload.iss),
    receiptId: String(payload.jti),
    issuedAt: new Date(Number(payload.iat) * 1_000),
    expiresAt: new Date(Number(payload.exp) * 1_000),
    statement: payload.proof as ProofReceiptStatement,
    statusPath: typeof payload.status === "string" ? payload.status : undefined,
    log: (payload.log as ReceiptLogClaim | undefined) ?? null,
  };
}

function explained(error: unknown): ReceiptVerificationError {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new ReceiptVerificationError("bad_signature", "Its signature does not match its content: it was changed after signing, or signed by another key.");
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return new ReceiptVerificationError(
      "unknown_key",
      "No key of the key set has the kid it names (signed by another deployment, or by a key no longer published).",
    );
  if (error instanceof errors.JWTExpired)
    return new ReceiptVerificationError("expired", `It expired (exp ${new Date(Number(error.payload.exp) * 1_000).toISOString()}).`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return new ReceiptVerificationError("wrong_issuer", "Its issuer (iss) is not the one expected.");
    if (error.claim === "typ") return new ReceiptVerificationError("wrong_type", "It is not a proof receipt (typ is not aopd-receipt+jwt).");
    return new ReceiptVerificationError("malformed", `Its claim ${error.claim} is missing or invalid.`);
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || (error instanceof Error && error.name === "TypeError")) {
    return new ReceiptVerificationError("key_set_unavailable", "The key set could not be read (unreachable, too slow, or not a JWKS).");
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new ReceiptVerificationError("wrong_algorithm", `It is signed with another algorithm than ${receiptAlgorithm}.`);
  return new ReceiptVerificationError("malformed", "It is not a receipt: a JWS in compact serialization (header.payload.signature) was expected.");
}
