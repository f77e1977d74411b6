import type {
  AddressFormat,
  Assessment,
  MediaContentType,
  ProofRow,
  ProofStatus,
  ReviewCause,
  SignatureScheme,
  SignatureScript,
} from "../database/database-schema.js";
import { currentDecisionOf, type Decision } from "./decision.js";
import { providerScreeningOf, screeningOf, type ProviderScreening, type Screening } from "../screening/screening.js";

interface ProofBase {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  /** Null only for a signature proof whose address the customer has not named yet. */
  address: string | null;
  customerId: string;
  asset: string;
  comment: string | null;
  status: ProofStatus;
  dueAt: Date | null;
  /** Set while the proof is on legal hold (undefined when its columns were not read). */
  legalHold?: { since: Date; reason: string } | null;
  /**
   * The address checked against the sanctions list. Always set by `toProof`; absent only on proofs
   * built by hand (tests), which read as NOT_SCREENED (`screeningOfProof`).
   */
  screening?: Screening;
  /** The commercial provider's answer; null until it answered (absent on proofs built by hand). */
  providerScreening?: ProviderScreening | null;
}

export interface SignatureProof extends ProofBase {
  __typename: "AopdSignatureProof";
  format: AddressFormat | null;
  message: string;
  signature: string | null;
  xpub: string | null;
  /** How the signature was verified, once it was (the API's `AopdSignatureScheme` names). */
  signatureScheme?: SignatureSchemeName | null;
  /** The block at which a wallet contract accepted the signature (ERC1271 and ERC6492 only). */
  contractCheckBlockHeight?: number | null;
  /** The script spent and the keys that signed (BIP322_SCRIPT and PSBT only). */
  signatureScript?: SignatureScript | null;
  /**
   * Why the evidence left the proof to an officer (`screening`); null when its signature decided it.
   * Only such a proof has an officer's assessment, decision and proposal (absent on proofs built by hand).
   */
  leftForReview?: ReviewCauseName | null;
  assessment?: Assessment | null;
  decision?: Decision | null;
  proposalId?: string | null;
}

/** The API's names of the signature schemes (`AopdSignatureScheme`). */
export type SignatureSchemeName =
  "BITCOIN_SIGNED_MESSAGE" | "BIP322_SIMPLE" | "BIP322_SCRIPT" | "PSBT" | "EIP191" | "ED25519" | "TIP191" | "ERC1271" | "ERC6492";
const schemeNames: Record<SignatureScheme, SignatureSchemeName> = {
  legacy: "BITCOIN_SIGNED_MESSAGE",
  "bip322-simple": "BIP322_SIMPLE",
  "bip322-script": "BIP322_SCRIPT",
  psbt: "PSBT",
  eip191: "EIP191",
  ed25519: "ED25519",
  tip191: "TIP191",
  erc1271: "ERC1271",
  erc6492: "ERC6492",
};

/** The API's names of why a signature proof was left for review (`AopdReviewCause`). */
export type ReviewCauseName = "SCREENING";
const reviewCauseNames: Record<ReviewCause, ReviewCauseName> = { screening: "SCREENING" };

export interface SatoshiProof extends ProofBase {
  __typename: "AopdSatoshiProof";
  amount: string;
  senderAddress: string;
  depositAddress: string;
  txId: string | null;
  assessment: Assessment | null;
  blockHeight: number | null;
  confirmations: number | null;
  failureReason: string | null;
  /** What the chain check found besides block height and confirmations (migration 0014); optional where a test builds a proof by hand. */
  blockHash?: string | null;
  amountReceived?: string | null;
  amountReceivedUnits?: string | null;
  transactionSenders?: string[] | null;
  decision: Decision | null;
  /** The id of the proposal awaiting a second officer (four eyes); `proposal` resolves it. */
  proposalId?: string | null;
}

export interface MediaProof extends ProofBase {
  __typename: "AopdMediaProof";
  /** Null until the media is uploaded; then all four are set. */
  contentType: MediaContentType | null;
  byteSize: number | null;
  sha256: string | null;
  uploadedAt: Date | null;
  assessment: Assessment | null;
  decision: Decision | null;
  proposalId?: string | null;
}

/** A proof as the API shows it; the resolvers, the export and the events all read this shape. */
export type Proof = SignatureProof | SatoshiProof | MediaProof;

/**
 * Maps a row to the API shape. Written as literals rather than a shared base spread into each:
 * this runs for every row of every page and export, and spreads cost several times more.
 */
export function toProof(row: ProofRow): Proof {
  if (row.kind === "satoshi") {
    return {
      __typename: "AopdSatoshiProof",
      id: row.id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      address: row.address,
      customerId: row.customer_id,
      asset: row.asset,
      comment: row.comment,
      status: row.status,
      dueAt: row.due_at,
      legalHold: legalHoldOf(row),
      screening: screeningOf(row),
      providerScreening: providerScreeningOf(row),
      amount: String(row.amount),
      senderAddress: row.address ?? "",
      depositAddress: row.deposit_address ?? "",
      txId: row.tx_id,
      assessment: row.assessment,
      blockHeight: row.block_height === null ? null : Number(row.block_height),
      confirmations: row.confirmations,
      failureReason: row.failure_reason,
      blockHash: row.block_hash,
      amountReceived: row.amount_received === null ? null : String(row.amount_received),
      amountReceivedUnits: row.amount_received_units,
      transactionSenders: row.transaction_senders,
      decision: currentDecisionOf(row),
      proposalId: row.proposal_id,
    };
  }
  if (row.kind === "media") {
    return {
      __typename: "AopdMediaProof",
      id: row.id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      address: row.address,
      customerId: row.customer_id,
      asset: row.asset,
      comment: row.comment,
      status: row.status,
      dueAt: row.due_at,
      legalHold: legalHoldOf(row),
      screening: screeningOf(row),
      providerScreening: providerScreeningOf(row),
      contentType: row.media_content_type,
      byteSize: row.media_byte_size === null ? null : Number(row.media_byte_size),
      sha256: row.media_sha256,
      uploadedAt: row.media_uploaded_at,
      assessment: row.assessment,
      decision: currentDecisionOf(row),
      proposalId: row.proposal_id,
    };
  }
  return {
    __typename: "AopdSignatureProof",
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    address: row.address,
    customerId: row.customer_id,
    asset: row.asset,
    comment: row.comment,
    status: row.status,
    dueAt: row.due_at,
    legalHold: legalHoldOf(row),
    screening: screeningOf(row),
    providerScreening: providerScreeningOf(row),
    format: row.format,
    message: row.message ?? "",
    signature: row.signature,
    xpub: row.xpub,
    signatureScheme: row.signature_scheme === null || row.signature_scheme === undefined ? null : schemeNames[row.signature_scheme],
    contractCheckBlockHeight:
      row.contract_check_block_height === null || row.contract_check_block_height === undefined ? null : Number(row.contract_check_block_height),
    signatureScript: row.signature_script ?? null,
    leftForReview: row.left_for_review === null || row.left_for_review === undefined ? null : reviewCauseNames[row.left_for_review],
    assessment: row.assessment,
    decision: currentDecisionOf(row),
    proposalId: row.proposal_id,
  };
}

/** The hold's columns as the API's `legalHold`; null when not held or not read. */
function legalHoldOf(row: ProofRow): { since: Date; reason: string } | null {
  return row.legal_hold_since && row.legal_hold_reason !== null && row.legal_hold_reason !== undefined
    ? { since: row.legal_hold_since, reason: row.legal_hold_reason }
    : null;
}

/** A proof's screening; NOT_SCREENED for a proof built without one. */
export function screeningOfProof(proof: Proof): Screening {
  return proof.screening ?? screeningOf({});
}
