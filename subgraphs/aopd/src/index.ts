// What a deployable needs of aopd: start it, configure it, migrate and seed its database, and its
// schema for composition. The functions benchmarks and tests drive below GraphQL are behind the
// second door, `@compliance-graph/aopd/internals`.
export { startAopd, type RunningAopd, type StartAopdOptions } from "./start-aopd.js";
export { aopdConfigFromEnv, type AopdConfig } from "./aopd-config.js";
export { openDatabase, type Database, type DatabaseOptions } from "./database/open-database.js";
export { migrateToLatest } from "./database/migrate-to-latest.js";
export type { AopdDatabase, ProofRow } from "./database/database-schema.js";
export { assembleAopdSdl, aopdSchemaFile } from "./schema/assemble-aopd-sdl.js";
export { seedProofs } from "./seed/seed-proofs.js";
