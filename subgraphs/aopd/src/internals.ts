// The data layer's functions that benchmarks and whole-stack tests call directly, below GraphQL:
// not an API of the deployable, and free to change with aopd.
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
export { importSanctionsList, type SanctionsImportReport } from "./screening/import-sanctions-list.js";
export { rescreenProofs } from "./screening/rescreen-proofs.js";
export { screenAddress } from "./screening/screen-address.js";
