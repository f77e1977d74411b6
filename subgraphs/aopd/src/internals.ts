// The data layer's functions that benchmarks and whole-stack tests call directly, below GraphQL:
// not an API of the deployable, and free to change with aopd.
export { openDatabase, type Database, type DatabaseOptions } from "./database/open-database.js";
export { migrateToLatest } from "./database/migrate-to-latest.js";
export type { AopdDatabase, ProofRow } from "./database/database-schema.js";
export { seedProofs } from "./seed/seed-proofs.js";
export { toProof, type Proof } from "./proofs/proof.js";
export { countProofsQuery, selectProofPage, selectProofs } from "./proofs/proof-query.js";
export { proofColumnsFor } from "./proofs/proof-columns.js";
export { proofOrder } from "./proofs/proof-sort.js";
export { encodeEventCursor } from "./events/event-cursor.js";
export { readEventLogBounds } from "./events/sequence-proof-events.js";
export { pruneProofEvents } from "./events/prune-proof-events.js";
export { exportProofsAsXlsx } from "./export/export-proofs-as-xlsx.js";
export { ChainWatcher } from "./chain/chain-watcher.js";
export { claimProofsForChainCheck } from "./chain/claim-proofs-for-chain-check.js";
export { requestSatoshiProof } from "./ingestion/request-satoshi-proof.js";
export { finalizeSatoshiProof } from "./ingestion/satoshi-proof-transitions.js";
export { SeededRandom } from "./seed/seeded-random.js";
export { issueProofReceipt } from "./receipts/issue-proof-receipt.js";
export { loadReceiptSigningKeys } from "./receipts/receipt-signing-keys.js";
export { ReceiptSigner } from "./receipts/receipt-signer.js";
export { verifyProofReceipt } from "./receipts/verify-proof-receipt.js";
export { customerActor } from "./audit/audit-actor.js";
export { decideProof } from "./decisions/decide-proof.js";
export { appendAuditEntries } from "./audit/append-audit-entry.js";
export { chainAuditEntries } from "./audit/chain-audit-entries.js";
export { auditTrailSwitch } from "./audit/audit-trail-switch.js";
export { verifyAuditTrail } from "./audit/verify-audit-trail.js";
