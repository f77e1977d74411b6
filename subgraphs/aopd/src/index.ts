// What a deployable needs of aopd: start it, configure it, and its schema for composition. Its data
// layer (opening, migrating and seeding the database, the query functions benchmarks and tests call
// below GraphQL) is behind the second door, `@compliance-graph/aopd/internals`; `npm run migrate` and
// `npm run seed` are aopd's own command-line tools.
export { startAopd, type RunningAopd, type StartAopdOptions } from "./start-aopd.js";
export { aopdConfigFromEnv } from "./aopd-config-from-env.js";
export type { AopdConfig } from "./aopd-config.js";
export { assembleAopdSdl, aopdSchemaFile } from "./schema/assemble-aopd-sdl.js";
