import { Kysely, PostgresDialect, type LogEvent } from "kysely";
import type { AopdDatabase } from "../../src/database/database-schema.js";
import type { Database } from "../../src/database/open-database.js";
import { PGliteDialect } from "@compliance-graph/pglite-dialect";

/**
 * A second Kysely on the same database that records every statement it runs, so that a test can
 * state which SQL an operation sent (and which it did not). It shares the pool or the PGlite
 * instance; the test database's own `close` releases them, so this one is never destroyed.
 */
export function loggedKysely(database: Database): { db: Kysely<AopdDatabase>; statements: { sql: string; parameters: readonly unknown[] }[] } {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const log = (event: LogEvent) => {
    statements.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  const dialect = database.pool ? new PostgresDialect({ pool: database.pool }) : new PGliteDialect(database.pglite!);
  return { db: new Kysely<AopdDatabase>({ dialect, log }), statements };
}
