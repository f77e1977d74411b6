import { randomBytes } from "node:crypto";
import { refuseListedAddress } from "../../screening/refuse-listed-address.js";
import { UserInputError } from "@compliance-graph/errors";
import { sql, type Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AddressFormat, AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { aoppFormatOf, aoppUriOf } from "./aopp-uri.js";
import { createProofOnce, type IdempotencyRequest } from "../../ingestion/create-proof-once.js";
import { credentialUrls } from "../../ingestion/credential-urls.js";
import { optionalComment, requireAddress, requireAsset, requireCustomerId, storedFormat } from "../../ingestion/proof-input-rules.js";
import { signatureProofFamily } from "./signature-proof-family.js";

export interface RequestAoppProofInput {
  customerId: string;
  asset: string;
  format?: AddressFormat | null;
  /** Absent: the wallet (or the customer on the portal) names the address, as AOPP intends. */
  expectedAddress?: string | null;
  message?: string | null;
  comment?: string | null;
  xpubRequired?: boolean | null;
}

export interface AoppProofRequest {
  row: ProofRow;
  /** The `aopp:` URI for Bitcoin and Ethereum-family assets; the portal URL for networks AOPP does not cover. */
  aoppUri: string;
  portalUrl: string;
}

// AOPP messages are ASCII; newlines are allowed, other control characters are not.
const aoppMessage = /^[\x20-\x7e\n]*$/;

/**
 * Creates a pending signature proof and the AOPP URI a wallet opens to sign its message. The
 * one-time credential exists only in the returned URI and portal URL (the row keeps its hash), so
 * this answer is the one chance to pass it on. Without an expected address the proof's address
 * stays null until a verified signature names it.
 *
 * AOPP names only the assets `btc` and `eth`. For Solana and TRON (and their tokens) there is no
 * `aopp:` link for a wallet to open: the customer signs in the wallet and pastes the signature on
 * the portal, whose URL then stands in `aoppUri` too. The field stays non-null, as existing
 * clients read it, and the specification's `AopdAoppUri` is exactly "the URL of the portal where
 * the user can submit their proof".
 *
 * With an idempotency key, a repeat gets the first request's proof and the same two links, built
 * from the stored row (message, asset, format) and the credential derived again (see `createProofOnce`).
 */
export async function requestAoppProof(
  db: Kysely<AopdDatabase>,
  config: AopdConfig,
  input: RequestAoppProofInput,
  idempotency: IdempotencyRequest,
): Promise<AoppProofRequest> {
  const customerId = requireCustomerId("input.customerId", input.customerId);
  const asset = requireAsset("input.asset", config, input.asset);
  const family = signatureProofFamily("input.asset", asset);
  // Every family but Bitcoin has one address format, which AOPP calls "standard".
  const aoppFormat = aoppFormatOf(family === "bitcoin" ? "btc" : "eth", input.format);
  if (!aoppFormat) {
    const allowed = family === "bitcoin" ? "null (any), P2PKH, P2SH, P2WPKH or P2TR" : "null (the standard format)";
    throw new UserInputError("input.format", `${String(input.format)} cannot be requested for ${asset.name}; allowed: ${allowed}.`);
  }
  const format = storedFormat(input.format);
  const address =
    input.expectedAddress === null || input.expectedAddress === undefined
      ? null
      : requireAddress("input.expectedAddress", config, asset, input.expectedAddress, family === "bitcoin" ? format : null);
  if (address !== null) await refuseListedAddress(db, config.screening.policy, "input.expectedAddress", asset.code, address);
  const nonce = randomBytes(12).toString("hex");
  const message =
    input.message ??
    (address === null
      ? `I confirm that I control the address I sign with for ${customerId}. Nonce: ${nonce}`
      : `I confirm that I control ${address} for ${customerId}. Nonce: ${nonce}`);
  if (message.length === 0 || message.length > config.maxMessageLength || !aoppMessage.test(message)) {
    throw new UserInputError("input.message", `must be 1 to ${config.maxMessageLength} ASCII characters (printable or newline).`);
  }
  const comment = optionalComment("input.comment", input.comment);
  const request = { mutation: "requestAoppProof", input, idempotency, lifetimeSeconds: config.idempotencyKeyLifetimeSeconds } as const;
  // One statement: the table's trigger records the CREATED event in the same transaction.
  const { row, token } = await createProofOnce(db, request, (executor, hash) =>
    executor
      .insertInto("aopd_proof")
      .values({
        kind: "signature",
        status: "PENDING",
        customer_id: customerId,
        asset: asset.code,
        address,
        comment,
        format,
        message,
        due_at: sql<Date>`now() + make_interval(secs => ${config.signatureProofLifetimeSeconds})`,
        callback_token_hash: hash,
        xpub_required: input.xpubRequired === true,
        // The single-use nonce of the proof's sign-in message (EIP-4361, CAIP-122; proof-sign-in-message.ts).
        signin_nonce: randomBytes(12).toString("hex"),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  const { portalUrl } = credentialUrls(config, token);
  // Built from the row, so that a repeat's URI is the first answer's: AOPP's asset and format follow from the stored asset and format.
  return { row, aoppUri: aoppUriOf(config, row, token) ?? portalUrl, portalUrl };
}
