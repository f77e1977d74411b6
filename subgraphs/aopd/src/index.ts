export { startAopd, type RunningAopd, type StartAopdOptions } from "./start-aopd.js";
export { aopdConfigFromEnv, type AopdConfig } from "./aopd-config.js";
export { openDatabase, type Database, type DatabaseOptions } from "./database/open-database.js";
export { migrateToLatest } from "./database/migrate-to-latest.js";
export type { AopdDatabase, NewProofRow, ProofRow } from "./database/database-schema.js";
export { assembleAopdSdl, aopdSchemaFile } from "./schema/assemble-aopd-sdl.js";
export { seedProofs } from "./seed/seed-proofs.js";
export { toProof, type Proof } from "./proofs/proof.js";
export { countProofsQuery, selectProofs } from "./proofs/proof-query.js";
