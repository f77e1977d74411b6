import { randomUUID } from "node:crypto";
import { SignJWT, type JWK } from "jose";
import type { ReceiptConfig } from "./receipt-config.js";
import { receiptAlgorithm, type ReceiptSigningKeys } from "./receipt-signing-keys.js";
import type { ProofReceiptStatement } from "./proof-receipt-claims.js";
import type { ReceiptLogClaim } from "./receipt-log-claim.js";

/** The `typ` of a receipt's protected header: a verifier requires it, so no other token of ours passes for a receipt. */
export const receiptType = "aopd-receipt+jwt";

/** Where the gateway serves the receipt keys (subgraph-routes.yaml), and aopd too. */
export const receiptJwksPath = "/.well-known/aopd-receipt-keys.json";

/** Where a receipt's status is public (http/receipt-status-route.ts): this prefix and the receipt's `jti`. */
export const receiptStatusPathPrefix = "/.well-known/aopd-receipt-status/";

/** A signed receipt and what a client shows of it. */
export interface ProofReceipt {
  /** The JWS in compact serialization (a JWT: `header.payload.signature`, base64url). */
  jws: string;
  /** Its `jti`: the name of its status (`receiptStatusPathPrefix` + this). */
  receiptId: string;
  keyId: string;
  issuedAt: Date;
  expiresAt: Date;
  statement: ProofReceiptStatement;
  /** The decision's place in the audit log (receipt-log-claim.ts); null when the log had not covered it yet. */
  log: ReceiptLogClaim | null;
}

/**
 * Signs receipts with the current key and publishes every key that may have signed one. Holds
 * no state but the keys: replicas with the same configuration sign alike.
 */
export class ReceiptSigner {
  /** The published key set, serialized once (it changes only with the configuration). */
  readonly jwksJson: string;

  constructor(
    private readonly keys: ReceiptSigningKeys,
    private readonly config: Pick<ReceiptConfig, "issuer" | "validityDays">,
  ) {
    this.jwksJson = JSON.stringify(keys.jwks);
  }

  get jwks(): { keys: JWK[] } {
    return this.keys.jwks;
  }

  get issuer(): string {
    return this.config.issuer;
  }

  /**
   * The statement as a JWT signed with ES256: `iss`, `sub` (the proof's id), `jti` (this receipt's
   * own id), `iat`, `exp`, and the statement as the `proof` claim; the header names the key (`kid`)
   * and the type (`typ`).
   */
  async sign(statement: ProofReceiptStatement, now = new Date(), log: ReceiptLogClaim | null = null): Promise<ProofReceipt> {
    const issuedAtSeconds = Math.floor(now.getTime() / 1_000);
    const expiresAtSeconds = issuedAtSeconds + this.config.validityDays * 86_400;
    const receiptId = randomUUID();
    const jws = await new SignJWT({
      proof: statement as unknown as Record<string, unknown>,
      status: `${receiptStatusPathPrefix}${receiptId}`,
      ...(log ? { log: log as unknown as Record<string, unknown> } : {}),
    })
      .setProtectedHeader({ alg: receiptAlgorithm, kid: this.keys.current.kid, typ: receiptType })
      .setIssuer(this.config.issuer)
      .setSubject(statement.id)
      .setJti(receiptId)
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(expiresAtSeconds)
      .sign(this.keys.current.privateKey);
    return {
      jws,
      receiptId,
      keyId: this.keys.current.kid,
      issuedAt: new Date(issuedAtSeconds * 1_000),
      expiresAt: new Date(expiresAtSeconds * 1_000),
      statement,
      log,
    };
  }
}
