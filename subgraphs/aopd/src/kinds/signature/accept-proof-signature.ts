import type { AuditOrigin } from "../../audit/audit-origin.js";
import { sql, type Kysely } from "kysely";
import type { AopdMetrics } from "../../aopd-metrics.js";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import {
  keyAddressesOf,
  OwnershipInputError,
  toEip55Address,
  verifiableFamilies,
  verifyOwnershipSignature,
  type AssetFamily,
  type KeyAddress,
  type OwnershipFailureCode,
} from "../../ownership/index.js";
import {
  BusyRefusal,
  isMovedOn,
  ProofRefusal,
  ProofStateRefusal,
  SubmissionRefusal,
  UnknownProofRefusal,
  type SubmissionRefusalCode,
} from "../../proofs/proof-refusal.js";
import { hashCallbackToken } from "../../ingestion/callback-token.js";
import { changeProofStatus } from "../../proofs/change-proof-status.js";
import { isRequestedMessage, parseSignedMessage } from "./parse-signed-message.js";
import { checkSignInMessage, proofSignInMessage } from "./proof-sign-in-message.js";
import { looksLikeSignInMessage, parseSignInMessage } from "./sign-in-message.js";
import type { XpubDerivationSearch } from "./xpub-derivation-search.js";
import { isContractWalletCandidate, isWrappedSignature, verifyContractWalletSignature } from "./verify-contract-wallet-signature.js";
import { XpubSearchBusyError } from "./xpub-search-busy-error.js";
import { screenAddress } from "../../screening/screen-address.js";
import type { Screening } from "../../screening/screening.js";

/** A signature for a proof, from the AOPP callback or the portal. */
export interface SignatureSubmission {
  /** May be omitted when the proof names its address, or when a signed-message block carries it. */
  address?: string;
  /** The bare signature, or a wallet's signed-message block (see `parseSignedMessage`). */
  signature: string;
  xpub?: string;
}

export interface SignatureAcceptanceServices {
  db: Kysely<AopdDatabase>;
  config: AopdConfig;
  findXpubDerivation: XpubDerivationSearch;
  metrics: Pick<AopdMetrics, "signatureVerifications">;
}

export interface AcceptedSignature {
  proof: ProofRow;
  /** The same signature had already been accepted (a retry after a lost answer). */
  repeated: boolean;
}

const failureCodes: Record<OwnershipFailureCode, SubmissionRefusalCode> = {
  INVALID_ADDRESS: "invalid_address",
  FORMAT_MISMATCH: "format_mismatch",
  MALFORMED_SIGNATURE: "malformed_signature",
  UNSUPPORTED_SIGNATURE: "unsupported_signature",
  SIGNATURE_MISMATCH: "signature_mismatch",
  INVALID_EXTENDED_KEY: "invalid_xpub",
};

/** Bitcoin's bech32 addresses, which are case-insensitive by definition. */
const isBech32 = (family: string | null, address: string) => family === "bitcoin" && /^(bc|tb|bcrt)1/i.test(address);

function sameAddress(family: string | null, a: string, b: string): boolean {
  // Ethereum addresses compare without their checksum case; base58 ones (Bitcoin's legacy,
  // Solana's, TRON's) are case-sensitive.
  if (family === "ethereum" || isBech32(family, a)) return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

/** The form a customer-named address is stored in: EIP-55 for Ethereum, lower case for bech32. */
function canonicalAddress(family: string, address: string): string {
  if (family === "ethereum") return toEip55Address(address);
  return isBech32(family, address) ? address.toLowerCase() : address;
}

const unknownProof = () => new UnknownProofRefusal("This link does not belong to a signature proof; ask for a new link.");

/**
 * Accepts a signature for the signature proof behind a one-time credential: the one path of the
 * AOPP callback and of the portal's signature form. The address must be the proof's (or, for a
 * proof requested without one, valid for the asset, format and network), the signature must be
 * its key's over exactly the requested message, and the xpub, when given or required, must derive
 * the address. The status change is conditional on the proof still being pending and not yet due,
 * so of many concurrent submissions exactly one wins; the others, and any later retry, get the same
 * success when they carry the very submission that won (idempotent), `not_pending` otherwise.
 *
 * Each submission taken in is counted in the database before its verification starts, and a proof
 * takes at most `maxFailedAttempts`: the cost one credential can impose is bounded on every replica.
 * Refusals are `ProofRefusal`s (proofs/proof-refusal.ts).
 */
export async function acceptProofSignature(
  services: SignatureAcceptanceServices,
  token: string,
  submission: SignatureSubmission,
  origin: AuditOrigin,
): Promise<AcceptedSignature> {
  const { db, config } = services;
  const proof = await db.selectFrom("aopd_proof").selectAll().where("callback_token_hash", "=", hashCallbackToken(token)).executeTakeFirst();
  if (!proof || proof.kind !== "signature") throw unknownProof();
  const assetFamily = config.assets.get(proof.asset)?.addressFamily ?? null;
  if (assetFamily === null || !(verifiableFamilies as readonly string[]).includes(assetFamily)) {
    throw new SubmissionRefusal("unsupported_signature", "The proof's asset cannot be proven by signature.");
  }
  const family = assetFamily as AssetFamily;

  const resolved = resolveSubmission(family, proof, submission);
  // A repeat of the accepted submission gets the same answer, verified or left for review.
  const settledBy = (row: ProofRow) =>
    (row.status === "VERIFIED" || row.status === "SUBMITTED") && !(resolved instanceof ProofRefusal) && isAcceptedSubmission(family, row, resolved);
  if (settledBy(proof)) return { proof, repeated: true };
  refuseUnlessOpen(proof);
  const settled = await takeAttempt(db, proof, config.maxFailedAttempts);
  if (settled) {
    // Another submission settled the proof since it was read: a copy of the winner is a success.
    if (settledBy(settled)) return { proof: settled, repeated: true };
    refuseUnlessOpen(settled);
    throw new ProofStateRefusal("too_many_attempts", `This proof has refused ${config.maxFailedAttempts} submissions and takes no more; ask for a new proof.`);
  }
  if (resolved instanceof ProofRefusal) throw resolved;

  // A signed sign-in message (EIP-4361, CAIP-122) must name this deployment, chain, proof and time.
  let signedMessage: string | null = null;
  if (resolved.signInMessage !== undefined) {
    const named = await checkSignInMessage(db, config, proof, resolved.signInMessage, (a, b) => sameAddress(family, a, b));
    if (!sameAddress(family, named, resolved.address))
      throw new SubmissionRefusal("address_mismatch", "The address differs from the address the sign-in message names.");
    signedMessage = resolved.signInMessage;
  }

  // The deprecated ANY and STANDARD mean "any format", as null does.
  const format = proof.format === "ANY" || proof.format === "STANDARD" ? null : proof.format;
  const verifyOver = (message: string) =>
    verifyOwnershipSignature({
      assetFamily: family,
      address: resolved.address,
      message,
      signature: resolved.signature,
      expectedFormat: family === "bitcoin" ? format : null,
      network: family === "bitcoin" ? config.bitcoinNetwork : null,
    });
  let message = signedMessage ?? proof.message ?? "";
  let verification = verifyOver(message);
  // A bare signature names no message: it may be over the AOPP message or the sign-in message the portal offered.
  const offered = !verification.ok && signedMessage === null ? proofSignInMessage(config, proof) : null;
  if (offered !== null) {
    const overOffered = verifyOver(offered);
    if (overOffered.ok) [verification, message, signedMessage] = [overOffered, offered, offered];
  }
  // A contract wallet (ERC-1271, or ERC-6492 before it is deployed) signs without a key of its own: asked only when ecrecover failed.
  let contractCheck: { blockHeight: number; scheme: "erc1271" | "erc6492" } | undefined;
  if (!verification.ok && isContractWalletCandidate(family, verification, resolved.signature)) {
    try {
      contractCheck = await verifyContractWalletSignature(config, {
        asset: proof.asset,
        address: resolved.address,
        message,
        signature: resolved.signature,
        recoveryFailure: { code: failureCodes[verification.code], reason: verification.reason },
      });
    } catch (error) {
      if (error instanceof SubmissionRefusal)
        services.metrics.signatureVerifications.inc({
          family,
          scheme: isWrappedSignature(resolved.signature) ? "erc6492" : "erc1271",
          result: verification.code,
        });
      throw error;
    }
  }
  const scheme = verification.ok ? verification.scheme : contractCheck ? contractCheck.scheme : "none";
  services.metrics.signatureVerifications.inc({ family, scheme, result: verification.ok || contractCheck ? "verified" : verification.code });
  if (!verification.ok && !contractCheck) throw new SubmissionRefusal(failureCodes[verification.code], verification.reason);

  if (proof.xpub_required && resolved.xpub === undefined)
    throw new SubmissionRefusal("xpub_required", "This proof requires the xpub the address derives from.");
  if (resolved.xpub !== undefined) {
    if (family !== "bitcoin") throw new SubmissionRefusal("invalid_xpub", "An xpub can only be given for a Bitcoin address.");
    try {
      const derivation = await services.findXpubDerivation({ xpub: resolved.xpub, address: resolved.address, maxIndex: config.xpubMaxIndex });
      if (!derivation) {
        throw new SubmissionRefusal(
          "xpub_mismatch",
          `The address does not derive from the xpub within index ${config.xpubMaxIndex} of the receive or change chain.`,
        );
      }
    } catch (error) {
      if (error instanceof OwnershipInputError) throw new SubmissionRefusal(failureCodes[error.code], error.message);
      if (error instanceof XpubSearchBusyError) {
        throw new BusyRefusal("Too many xpub checks are waiting; send the same submission again in a few seconds.", 5);
      }
      throw error;
    }
  }

  const address = proof.address ?? canonicalAddress(family, resolved.address);
  // Every address the signer's key controls, screened with the proven one (docs/screening.md).
  const keyAddresses = verification.ok ? keyAddressesOf({ assetFamily: family, address: resolved.address, signerKey: verification.signerKey }) : [];
  const listed = await listedUnderRefusal(db, config, proof.asset, address, keyAddresses);
  try {
    const verified = await changeProofStatus(db, proof.id, {
      action: "verified",
      kind: "signature",
      from: ["PENDING"],
      beforeDue: true,
      // The token hash stays, so a later submission learns the proof is verified rather than unknown.
      set: {
        // A valid signature for a listed address (refusal policy) proves control of it, but is left for review: never VERIFIED on its own.
        status: listed ? "SUBMITTED" : "VERIFIED",
        // What makes it an officer's to decide (`officerDecides`, assess-signature-proof.ts).
        left_for_review: listed ? "screening" : null,
        address,
        signature: resolved.signature,
        xpub: resolved.xpub ?? null,
        due_at: null,
        // A contract's acceptance is recorded with the block it was asked at, so the check can be repeated there.
        signature_scheme: scheme === "none" ? null : scheme,
        contract_check_block_height: contractCheck ? String(contractCheck.blockHeight) : null,
        signature_script: verification.ok && verification.script ? JSON.stringify(verification.script) : null,
        // Set: the signature is over this sign-in message, and its nonce is used.
        signed_message: signedMessage,
        // Every address the signer's key controls (docs/screening.md), screened again by the table's trigger in this UPDATE, as the check above screened them.
        key_addresses: keyAddressesJson(keyAddresses),
      },
      audit: {
        origin,
        action: "SUBMITTED",
        details: {
          evidence: "signature",
          signatureScheme: scheme === "none" ? null : scheme,
          contractCheckBlockHeight: contractCheck ? String(contractCheck.blockHeight) : null,
          signatureScript: verification.ok ? (verification.script ?? null) : null,
          address: resolved.address,
          signedMessage,
          xpub: resolved.xpub,
          ...(listed ? { leftForReview: "screening", screening: screeningNamed(listed) } : {}),
        },
      },
    });
    return { proof: verified, repeated: false };
  } catch (error) {
    if (!isMovedOn(error)) throw error;
    // Another submission won meanwhile: the same one is a success, anything else is refused.
    const current = await db.selectFrom("aopd_proof").selectAll().where("id", "=", proof.id).executeTakeFirstOrThrow();
    if ((current.status === "VERIFIED" || current.status === "SUBMITTED") && isAcceptedSubmission(family, current, resolved))
      return { proof: current, repeated: true };
    refuseUnlessOpen(current);
    throw new ProofStateRefusal("not_pending", "The proof is no longer pending.", current.status);
  }
}

/**
 * Threat: a sanctioned party proving an address and getting VERIFIED (and a receipt) because the
 * refusal policy looked only at the request, while an AOPP request without an address learns the
 * address from the signature; or proving a clear address of a key whose other address is listed
 * (the same key's P2PKH beside its P2WPKH, its TRON address beside its EVM one). So under
 * `AOPD_SCREENING_POLICY=refuse` the proven address and its key's siblings are screened before the
 * status is written, as the table's trigger screens them; a LISTED result is returned with what
 * matched, for the review entry.
 */
async function listedUnderRefusal(
  db: Kysely<AopdDatabase>,
  config: AopdConfig,
  asset: string,
  address: string,
  keyAddresses: readonly KeyAddress[],
): Promise<Screening | null> {
  if (config.screening.policy !== "refuse") return null;
  const screening = await screenAddress(db, asset, address, keyAddresses);
  return screening.status === "LISTED" ? screening : null;
}

/** The screening as the officer reads it on the trail: the list, its version, the entry that matched and which of the key's addresses it matched. */
function screeningNamed(screening: Screening) {
  const entry = screening.matchedEntry;
  return {
    status: screening.status,
    list: screening.list,
    listVersion: screening.listVersion,
    entry: entry ? `${entry.asset} ${entry.address}${entry.sdnUid ? ` (SDN uid ${entry.sdnUid})` : ""}` : null,
    // `PROVEN_ADDRESS`, or the form of the key's sibling address that the list names (P2PKH, TRON, ...).
    matchedForm: screening.matchedForm,
    matchedAddress: screening.matchedAddress,
  };
}

/** The key's addresses as the column holds them; null where the signature revealed no key. */
function keyAddressesJson(addresses: readonly KeyAddress[]): string | null {
  return addresses.length ? JSON.stringify(addresses) : null;
}

interface ResolvedSubmission {
  address: string;
  signature: string;
  xpub: string | undefined;
  /** The sign-in message (EIP-4361, CAIP-122) a signed-message block carried, to be checked by `checkSignInMessage`. */
  signInMessage?: string;
}

/** The address, signature and xpub a submission stands for, or why it cannot stand for any. */
function resolveSubmission(family: AssetFamily, proof: ProofRow, submission: SignatureSubmission): ResolvedSubmission | SubmissionRefusal {
  const block = parseSignedMessage(submission.signature);
  if (!block.ok) return new SubmissionRefusal("malformed_signature", block.reason);
  const signIn = block.message !== undefined && looksLikeSignInMessage(block.message) ? block.message : undefined;
  if (block.message !== undefined && signIn === undefined && !isRequestedMessage(block.message.trim(), (proof.message ?? "").trim())) {
    return new SubmissionRefusal("wrong_message", "The signed message is not the message this proof asks to sign; sign exactly the message shown.");
  }
  if (submission.address !== undefined && block.address !== undefined && !sameAddress(family, submission.address, block.address)) {
    return new SubmissionRefusal("address_mismatch", "The address field differs from the address in the signed-message block.");
  }
  const signInAddress =
    signIn === undefined
      ? undefined
      : (() => {
          const parsed = parseSignInMessage(signIn);
          return parsed.ok ? parsed.fields.address : undefined;
        })();
  const claimed = submission.address ?? block.address ?? signInAddress;
  const xpub = submission.xpub === undefined || submission.xpub.trim() === "" ? undefined : submission.xpub.trim();
  if (proof.address !== null) {
    if (claimed !== undefined && !sameAddress(family, claimed, proof.address)) {
      return new SubmissionRefusal("address_mismatch", "The address differs from the address the proof expects.");
    }
    return { address: proof.address, signature: block.signature, xpub, ...(signIn === undefined ? {} : { signInMessage: signIn }) };
  }
  if (claimed === undefined || claimed.trim() === "") {
    return new SubmissionRefusal("invalid_address", "This proof names no address: give the address you signed with.");
  }
  // Verified as given (an Ethereum address's checksum case included); stored canonical once verified.
  return { address: claimed.trim(), signature: block.signature, xpub, ...(signIn === undefined ? {} : { signInMessage: signIn }) };
}

function isAcceptedSubmission(family: string, proof: ProofRow, submission: ResolvedSubmission): boolean {
  return (
    proof.address !== null &&
    sameAddress(family, submission.address, proof.address) &&
    proof.signature === submission.signature &&
    (proof.xpub ?? undefined) === submission.xpub
  );
}

function refuseUnlessOpen(proof: Pick<ProofRow, "status" | "due_at">): void {
  if (proof.status !== "PENDING")
    throw new ProofStateRefusal("not_pending", `The proof is ${proof.status}; only a pending proof accepts a signature.`, proof.status);
  if (proof.due_at && proof.due_at.getTime() <= Date.now()) throw new ProofStateRefusal("expired", "The proof's due time has passed; ask for a new proof.");
}

/** Counts one submission; when the proof takes no more (settled, or its cap reached), returns it as it now stands. */
async function takeAttempt(db: Kysely<AopdDatabase>, proof: ProofRow, maxAttempts: number): Promise<ProofRow | undefined> {
  const taken = await db
    .updateTable("aopd_proof")
    .set({ signature_attempts: sql<number>`signature_attempts + 1` })
    .where("id", "=", proof.id)
    .where("status", "=", "PENDING")
    .where("signature_attempts", "<", maxAttempts)
    .returning("signature_attempts")
    .executeTakeFirst();
  if (taken) return undefined;
  return db.selectFrom("aopd_proof").selectAll().where("id", "=", proof.id).executeTakeFirstOrThrow();
}
