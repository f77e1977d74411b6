import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from "kysely";
import { isTracingEnabled, projectTracer } from "@compliance-graph/process-shell";

/**
 * A span per statement of a recorded trace: its SQL text with placeholders (never the parameter
 * values). Outside one (a trace sampled out, a background job) the statement just runs: a span
 * there would record nothing, or start a trace per statement of the event numbering every second.
 */
async function traced<T>(query: CompiledQuery, run: () => Promise<T>): Promise<T> {
  if (!isTracingEnabled() || !trace.getActiveSpan()?.isRecording()) return run();
  return projectTracer().startActiveSpan(
    "db.query",
    { kind: SpanKind.CLIENT, attributes: { "db.system.name": "postgresql", "db.query.text": query.sql.slice(0, 2_000) } },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

class TracedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return traced(query, () => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class TracedDriver implements Driver {
  readonly savepoint?: Driver["savepoint"];
  readonly rollbackToSavepoint?: Driver["rollbackToSavepoint"];
  readonly releaseSavepoint?: Driver["releaseSavepoint"];

  constructor(readonly inner: Driver) {
    const unwrap = (connection: DatabaseConnection) => (connection as TracedConnection).inner;
    if (inner.savepoint) this.savepoint = (connection, name, compile) => inner.savepoint!(unwrap(connection), name, compile);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (connection, name, compile) => inner.rollbackToSavepoint!(unwrap(connection), name, compile);
    if (inner.releaseSavepoint) this.releaseSavepoint = (connection, name, compile) => inner.releaseSavepoint!(unwrap(connection), name, compile);
  }

  init = () => this.inner.init();
  acquireConnection = async () => new TracedConnection(await this.inner.acquireConnection());
  beginTransaction = (connection: DatabaseConnection, settings: TransactionSettings) =>
    this.inner.beginTransaction((connection as TracedConnection).inner, settings);
  commitTransaction = (connection: DatabaseConnection) => this.inner.commitTransaction((connection as TracedConnection).inner);
  rollbackTransaction = (connection: DatabaseConnection) => this.inner.rollbackTransaction((connection as TracedConnection).inner);
  releaseConnection = (connection: DatabaseConnection) => this.inner.releaseConnection((connection as TracedConnection).inner);
  destroy = () => this.inner.destroy();
}

/** Kysely's dialect with a span per SQL statement while tracing is on (a check per statement otherwise). */
export function tracedDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TracedDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
