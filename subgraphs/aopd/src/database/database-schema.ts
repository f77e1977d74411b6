import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

export type ProofKind = "signature" | "satoshi" | "media";
export type ProofStatus = "PENDING" | "SUBMITTED" | "VERIFIED" | "FAILED" | "EXPIRED";
export type AddressFormat = "ANY" | "STANDARD" | "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";
export type Assessment = "VERIFIED" | "FAILED";
/** The media types a media proof accepts, as their magic bytes decide (see detect-media-type.ts). */
export type MediaContentType = "image/png" | "image/jpeg" | "image/webp" | "video/mp4" | "video/webm";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * One row per proof, of either kind. The columns of the filter are shared; the kind-specific ones
 * are null for the other kind (a CHECK in the migration keeps that honest). One table keeps `proofs`
 * a single indexed scan whatever mix of kinds a filter selects.
 */
export interface ProofTable {
  id: Generated<string>;
  kind: ProofKind;
  status: ProofStatus;
  created_at: Generated<Date> & Timestamp;
  updated_at: Generated<Date> & Timestamp;
  /** When a pending proof expires. */
  due_at: Timestamp | null;
  customer_id: string;
  /** DTI code of the asset. */
  asset: string;
  /**
   * The address whose control is proven (for a Satoshi proof: the sender address). Null only for a
   * signature proof requested without an expected address, until a verified signature names it.
   */
  address: string | null;
  comment: string | null;
  format: AddressFormat | null;
  message: string | null;
  signature: string | null;
  xpub: string | null;
  /** Lowest denomination, as decimal digits: numeric(78,0) keeps every digit of a uint256. */
  amount: string | null;
  deposit_address: string | null;
  tx_id: string | null;
  assessment: Assessment | null;
  /** SHA-256 of the proof's one-time credential (AOPP callback and portal); null for seeded rows. */
  callback_token_hash: Buffer | null;
  /** The AOPP request demanded that the address derive from a submitted xpub. */
  xpub_required: Generated<boolean>;
  /**
   * Signature submissions taken in while pending (counted before verification; a verified one ends
   * the proof, so all but the last were refused). At `AOPD_MAX_FAILED_ATTEMPTS` it takes no more.
   */
  signature_attempts: Generated<number>;
  /** Satoshi proofs: the due time the chain watcher checks until (kept when `due_at` is cleared on submission). */
  chain_check_until: Timestamp | null;
  /** When a replica last took the proof for a chain check: the lease and the queue order. */
  chain_checked_at: Timestamp | null;
  /** The block holding the test transaction, once seen in one (bigint: read as a string by pg). */
  block_height: ColumnType<string | null, string | number | null, string | number | null>;
  /** The transaction's confirmations at the last check; at verification, those that counted. */
  confirmations: number | null;
  /** Why the chain contradicts the request (FAILED by the chain watcher). */
  failure_reason: string | null;
  /** PENDING Satoshi proofs whose deposit address is watched: how far the watch has looked (migration 0007). */
  chain_scan_cursor: string | null;
  /** A media proof's uploaded file: all four set together, once it is SUBMITTED (migration 0005). */
  media_content_type: MediaContentType | null;
  /** Bytes; a bigint, which the pg driver returns as a string. */
  media_byte_size: ColumnType<string | number | null, number | null | undefined, number | null>;
  /** Lowercase hex. */
  media_sha256: string | null;
  media_uploaded_at: Timestamp | null;
  /** The decision in force (migration 0009): a copy of its `aopd_proof_decision` row, null while undecided or reopened. */
  decision_id: string | null;
  decided_at: Timestamp | null;
  decision_reason: DecisionReason | null;
  decision_reason_text: string | null;
  decision_comment: string | null;
  decider_subject: string | null;
  decider_client: string | null;
  decider_username: string | null;
  decider_system: boolean | null;
  /** The proposal awaiting a second officer's confirmation (four eyes, migration 0010); only while SUBMITTED. */
  proposal_id: string | null;
  /** How the decision in force was made (migration 0010); null means DECIDED. */
  decision_action: "DECIDED" | "CONFIRMED" | null;
  /** The scheme a verified signature proof's signature was verified with (migration 0011). */
  signature_scheme: SignatureScheme | null;
  /** Satoshi proofs, what the chain check found (migration 0014): the block's hash. */
  block_hash: string | null;
  /** The sum the transaction paid the deposit address, lowest denomination (numeric: read as a string). */
  amount_received: ColumnType<string | null, string | null | undefined, string | null>;
  /** The same in whole units, with the asset's decimals when it was found; null when they are unknown. */
  amount_received_units: string | null;
  /** The addresses that paid the deposit address in the transaction. */
  transaction_senders: string[] | null;
  /** On legal hold since (migration 0013): kept past its retention until lifted; null when not held. */
  legal_hold_since: Timestamp | null;
  /** Why it is held; set exactly when `legal_hold_since` is. */
  legal_hold_reason: string | null;
  /** Signature proofs verified by a wallet contract (ERC-1271, migration 0015): the block it accepted the signature at (bigint: read as a string). */
  contract_check_block_height: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** For the scheme `bip322-script`, and `psbt` when the PSBT spent a script (migrations 0024, 0027): the script spent and its signers. */
  signature_script: ColumnType<SignatureScript | null, string | null | undefined, string | null>;
  /** Signature proofs (migration 0025): the single-use nonce their sign-in message (EIP-4361, CAIP-122) names. */
  signin_nonce: ColumnType<string | null, string | null | undefined, string | null>;
  /** The sign-in message a verified signature was made over; null when it was over `message`. Set: the nonce is used. */
  signed_message: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Signature proofs (migration 0026): why the evidence left the proof to an officer instead of
   * deciding it (`screening`: a LISTED address under the refusal policy); set with SUBMITTED, never cleared.
   */
  left_for_review: ColumnType<ReviewCause | null, ReviewCause | null | undefined, ReviewCause | null>;
  /** The screening against the sanctions list (migration 0016, docs/screening.md): set by the table's trigger and by re-screening. */
  screening_status: Generated<ScreeningStatus>;
  /** The list and version whose screening set this result (it stands until a later version changes it); null while NOT_SCREENED. */
  screening_list: string | null;
  screening_list_version: string | null;
  /** When this result was set. */
  screened_at: Timestamp | null;
  /** The list entry matched (LISTED only): OFAC's asset code, the address as listed, the SDN uid and name when the list has them. */
  screening_entry_asset: string | null;
  screening_entry_address: string | null;
  screening_entry_uid: string | null;
  screening_entry_name: string | null;
  /**
   * Which of the proof's addresses matched (migration 0023; LISTED only): `PROVEN_ADDRESS` or the form
   * of a sibling of `key_addresses`, and that address as ours spells it.
   */
  screening_matched_form: ScreenedAddressForm | null;
  screening_matched_address: string | null;
  /** The addresses the key a signature revealed controls on its chain family (`KeyAddress[]`, migration 0023); null where no key is known. */
  key_addresses: ColumnType<unknown, string | null | undefined, string | null>;
  /** The commercial screening provider's answer (migration 0017); null until it answered, and where none is configured. */
  provider_screening_status: "CLEAR" | "LISTED" | null;
  provider_screening_name: string | null;
  provider_screened_at: Timestamp | null;
  /** Its identifications, as `ProviderIdentification[]`. */
  provider_identifications: ColumnType<unknown, string | null, string | null>;
  /** When a replica last took the proof to ask the provider: the lease and the queue order. */
  provider_screening_taken_at: Timestamp | null;
}

export type ScreeningStatus = "CLEAR" | "LISTED" | "NOT_SCREENED";

/** Which of a proof's addresses a screening matched: its own, or a sibling its key controls (docs/screening.md). */
/** Why a proof its evidence decides was left to an officer (migration 0026). */
export type ReviewCause = "screening";

export type ScreenedAddressForm = "PROVEN_ADDRESS" | "P2PKH" | "P2WPKH" | "P2SH_P2WPKH" | "EVM" | "TRON" | "BNB_BEACON";

/** One imported version of a sanctions list (migration 0016). */
export interface SanctionsListTable {
  id: Generated<number>;
  list_name: string;
  /** `date`: read as a string (see open-database.ts's type parsers) or a Date, depending on the driver. */
  published_on: ColumnType<Date | string, string, string>;
  source: string;
  content_hash: string;
  imported_at: Generated<Date>;
  address_count: number;
  unmapped_count: number;
}

/** One address of one list version; `address_family` null: it maps to no network of `AopdAsset`. */
export interface SanctionsEntryTable {
  list_id: number;
  ofac_asset: string;
  address: string;
  address_family: string | null;
  address_key: string | null;
  sdn_uid: string | null;
  sdn_name: string | null;
}

/** The address family each screened asset is screened on (from the asset registry). */
export interface ScreenedAssetTable {
  asset: string;
  address_family: string;
}

/** As `OwnershipSignatureScheme` of ownership/ names them, `erc1271`: a wallet contract accepted it, `erc6492`: a counterfactual account's did (kinds/signature/verify-contract-wallet-signature.ts). */
export type SignatureScheme = "legacy" | "bip322-simple" | "bip322-script" | "psbt" | "eip191" | "ed25519" | "tip191" | "erc1271" | "erc6492";

/** What a `bip322-script` or `psbt` signature spent (migration 0024): `ScriptSpend` of ownership/. */
export interface SignatureScript {
  template: "multi" | "sortedmulti" | "pk" | "multi_a";
  threshold: number;
  keyCount: number;
  /** The keys whose signatures were verified, hex. */
  signers: string[];
}

export type DecisionAction = "DECIDED" | "REOPENED" | "PROPOSED" | "CONFIRMED" | "REJECTED" | "REOPEN_PROPOSED";

/** The reason codes of a decision (see decision-reason.ts for what each means). */
export type DecisionReason =
  | "ADDRESS_NOT_SHOWN"
  | "EVIDENCE_UNREADABLE"
  | "SUSPECTED_MANIPULATION"
  | "THIRD_PARTY_WALLET"
  | "WRONG_AMOUNT"
  | "WRONG_SENDER"
  | "WRONG_RECIPIENT"
  | "TRANSACTION_FAILED"
  | "SANCTIONED_ADDRESS"
  | "OTHER";

/** One decision or reopening of a proof, never changed once written (migration 0009). */
export interface ProofDecisionTable {
  id: string;
  /** The order decisions were recorded in. */
  recorded: Generated<string>;
  proof_id: string;
  action: DecisionAction;
  decided_at: Generated<Date> & Timestamp;
  outcome: Assessment | null;
  reason: DecisionReason | null;
  reason_text: string | null;
  comment: string | null;
  decider_subject: string;
  decider_client: string;
  decider_username: string | null;
  decider_system: boolean;
}

/** A media proof's bytes, one row per chunk in order; deleted with the proof. */
export interface ProofMediaChunkTable {
  proof_id: string;
  position: number;
  data: Buffer;
}

/** One proof creation or status change (see migration 0004 for how events are written and numbered). */
export interface ProofEventTable {
  insertion: Generated<string>;
  /** The event's place in the log; null until numbered, shortly after its transaction commits. */
  position: string | null;
  change: "CREATED" | "STATUS_CHANGED" | "SCREENING_CHANGED";
  recorded_at: Generated<Date>;
  sequenced_at: Date | null;
  /** The proof's row as the change left it, without its credential hash. */
  proof: unknown;
}

/** The log's one row: the last position numbered, and the last one pruned (older events are gone). */
export interface ProofEventLogTable {
  singleton: Generated<boolean>;
  sequenced_through: string;
  pruned_through: string;
}

/** The three request mutations that take an idempotency key. */
export type IdempotentMutation = "requestAoppProof" | "requestSatoshiProof" | "requestMediaProof";

/**
 * One idempotency key of one caller: the proof its first request created and what a repeat must
 * match (migration 0008). Neither the key nor the credential is stored, only their hashes and the
 * salt the credential is derived with.
 */
export interface IdempotentRequestTable {
  caller_subject: string;
  caller_client: string;
  /** SHA-256 of the key. */
  key_hash: Buffer;
  mutation: IdempotentMutation;
  /** SHA-256 of the mutation's name and its input (see `inputFingerprint`). */
  input_hash: Buffer;
  proof_id: string;
  credential_salt: Buffer;
  created_at: Generated<Date> & Timestamp;
  expires_at: Timestamp;
}

export interface AopdDatabase {
  aopd_proof: ProofTable;
  aopd_idempotent_request: IdempotentRequestTable;
  aopd_proof_event: ProofEventTable;
  aopd_proof_event_log: ProofEventLogTable;
  aopd_proof_media_chunk: ProofMediaChunkTable;
  aopd_proof_decision: ProofDecisionTable;
  aopd_audit_entry: AuditEntryTable;
  aopd_audit_head: AuditHeadTable;
  aopd_audit_set_aside: AuditSetAsideTable;
  aopd_audit_tree_node: AuditTreeNodeTable;
  aopd_audit_checkpoint: AuditCheckpointTable;
  aopd_audit_cosignature: AuditCosignatureTable;
  aopd_record_retention: RecordRetentionTable;
  aopd_sanctions_list: SanctionsListTable;
  aopd_sanctions_entry: SanctionsEntryTable;
  aopd_screened_asset: ScreenedAssetTable;
  aopd_receipt: ReceiptTable;
}

/** Why a receipt was revoked (migration 0022's trigger). */
export type ReceiptRevocationReason = "reopened" | "decided_again" | "screening_listed";

/** One receipt issued (migration 0022): its `jti`, what it stated of screening, and its revocation once the proof no longer says what it said. */
export interface ReceiptTable {
  id: string;
  proof_id: string;
  issued_at: Date;
  expires_at: Date;
  screening_status: ScreeningStatus;
  revoked_at: ColumnType<Date | null, never, never>;
  revoked_reason: ColumnType<ReceiptRevocationReason | null, never, never>;
}

/**
 * One entry of the audit trail (migrations 0012, 0018; audit/append-audit-entry.ts). Inserted
 * unchained; updated once, by the sequencer, to set `seq`, `previous_hash` and `hash`, never again.
 */
export interface AuditEntryTable {
  /** Its order of insertion (bigint: read as a string); orders the entries waiting to be chained. */
  insertion: ColumnType<string, never, never>;
  /** The place in the chain, gap-free from 1 (bigint: read as a string); null until chained. */
  seq: ColumnType<string | null, never, string>;
  occurred_at: ColumnType<Date, Date, never>;
  action: ColumnType<string, string, never>;
  proof_id: ColumnType<string | null, string | null, never>;
  actor_subject: ColumnType<string, string, never>;
  actor_client: ColumnType<string, string, never>;
  actor_username: ColumnType<string | null, string | null, never>;
  actor_system: ColumnType<boolean, boolean, never>;
  request_id: ColumnType<string | null, string | null, never>;
  trace_id: ColumnType<string | null, string | null, never>;
  /** Canonical JSON of what changed (audit-entry-hash.ts). */
  details: ColumnType<string, string, never>;
  previous_hash: ColumnType<string | null, never, string>;
  hash: ColumnType<string | null, never, string>;
  /** The authentication written by aopd at append (migration 0019; audit/audit-entry-authentication.ts); null on entries chained before it. */
  auth_key_id: ColumnType<string | null, string, never>;
  auth_nonce: ColumnType<string | null, string, never>;
  auth_mac: ColumnType<string | null, string, never>;
}

/** An entry the sequencer refused to chain (migration 0019): its authentication failed. */
export interface AuditSetAsideTable {
  insertion: string;
  set_aside_at: Generated<Date>;
  reason: string;
}

/** A complete subtree of the audit trail's Merkle tree (migration 0020; audit/audit-tree-store.ts). */
export interface AuditTreeNodeTable {
  level: number;
  /** bigint: a string from pg, a number from PGlite. */
  index: string;
  hash: Uint8Array;
}

/** A signed checkpoint (migration 0020; audit/audit-checkpoints.ts). */
export interface AuditCheckpointTable {
  tree_size: string;
  root_hash: Uint8Array;
  /** The whole C2SP signed note. */
  note: string;
  signed_at: Generated<Date>;
}

/** A witness's cosignature of a checkpoint (migration 0020). */
export interface AuditCosignatureTable {
  tree_size: string;
  witness: string;
  /** The signed-note signature line, `— <witness> <base64>`. */
  signature_line: string;
  received_at: Generated<Date>;
}

/** The chain's head: one row, the last entry's `seq` and `hash`. */
export interface AuditHeadTable {
  singleton: Generated<boolean>;
  seq: string;
  hash: string;
  /** How many chained entries the stored Merkle tree covers (migration 0020). */
  tree_size: Generated<string>;
}

/** The retention in force (migration 0013): one row, written at start-up from `AOPD_RECORD_RETENTION_YEARS`. */
export interface RecordRetentionTable {
  singleton: Generated<boolean>;
  years: number;
}

export type AuditEntryRow = Selectable<AuditEntryTable>;

export type ProofRow = Selectable<ProofTable>;
export type NewProofRow = Insertable<ProofTable>;
export type ProofDecisionRow = Selectable<ProofDecisionTable>;
