/**
 * What the audit trail records, one name per kind of action. Adding a kind is one line here (and
 * the same name in `AopdAuditAction` of `schema/aopd.graphql`, which a test holds equal to this
 * list); then `appendAuditEntry(trx, { action: "THE_NEW_KIND", ... })` where the action happens,
 * in the transaction of the change it records. See docs/audit-trail.md, "Adding an action".
 */
export const auditActions = [
  /** A proof was requested (any kind): its kind, customer, asset. */
  "REQUESTED",
  /** The customer's evidence arrived (signature, transaction id or file), with its SHA-256. */
  "SUBMITTED",
  /** The chain watcher found a Satoshi proof's transaction on its deposit address. */
  "MATCHED_ON_CHAIN",
  /** The chain watcher decided a Satoshi proof from what the chain shows. */
  "CHAIN_CHECKED",
  /** A person decided a proof VERIFIED or FAILED. */
  "DECIDED",
  /** Four eyes: a first officer's proposed decision. */
  "PROPOSED",
  /** Four eyes: a second officer confirmed the proposal; it took effect. */
  "CONFIRMED",
  /** Four eyes: a second officer rejected the proposal; the proof is back in review. */
  "REJECTED",
  /** A decided proof was set aside to be decided again. */
  "REOPENED",
  /** Four eyes: a first officer's proposal to set a decision aside. */
  "REOPEN_PROPOSED",
  /** A pending proof passed its due time. */
  "EXPIRED",
  /** An officer attached a file received another way. */
  "MEDIA_ATTACHED",
  /** An officer issued a new portal link for a pending proof; the links handed out before stop working. */
  "PORTAL_LINK_ISSUED",
  /** Someone downloaded a media proof's file (to keep or pass on). */
  "MEDIA_DOWNLOADED",
  /** An officer's screen showed a media proof's file: once per officer and file within the view window (`AOPD_MEDIA_VIEW_WINDOW_SECONDS`). */
  "MEDIA_VIEWED",
  /** Proofs were exported as XLSX: the filter, the rows written. */
  "PROOFS_EXPORTED",
  /** The audit trail itself was exported as XLSX: the filter, the rows written. */
  "AUDIT_TRAIL_EXPORTED",
  /** A proof was put on legal hold, with the reason. */
  "LEGAL_HOLD_PLACED",
  /** A proof's legal hold was lifted, with the reason. */
  "LEGAL_HOLD_LIFTED",
  /** A new sanctions list version moved a proof's address onto or off the list. */
  "SCREENING_CHANGED",
] as const;

export type AuditAction = (typeof auditActions)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (auditActions as readonly string[]).includes(value);
}
