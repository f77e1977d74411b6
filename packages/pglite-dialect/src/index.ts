/** Kysely on embedded PGlite: the development store of every deployable that keeps one (aopd, the registry). */
export { PGliteDialect } from "./pglite-dialect.js";
