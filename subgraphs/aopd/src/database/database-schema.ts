import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

export type ProofKind = "signature" | "satoshi";
export type ProofStatus = "PENDING" | "SUBMITTED" | "VERIFIED" | "FAILED" | "EXPIRED";
export type AddressFormat = "ANY" | "STANDARD" | "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";
export type Assessment = "VERIFIED" | "FAILED";

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
}

export interface AopdDatabase {
  aopd_proof: ProofTable;
}

export type ProofRow = Selectable<ProofTable>;
export type NewProofRow = Insertable<ProofTable>;
