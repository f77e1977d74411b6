import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One statement per call: PGlite runs a parameterized query as one prepared statement.
  for (const statement of [
    sql`
    CREATE TABLE registry_subgraph (
      name text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
      url text NOT NULL,
      schema text NOT NULL,
      routes text NOT NULL DEFAULT '[]',
      owners text[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )
    `,
    sql`
    CREATE TABLE registry_version (
      -- Numbered by the publisher under the publish lock (it signs the number before the row exists).
      version integer PRIMARY KEY CHECK (version > 0),
      subgraph text NOT NULL,
      action text NOT NULL CHECK (action IN ('publish', 'rollback', 'remove')),
      actor_subject text NOT NULL,
      actor_client text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      reason text,
      diff jsonb NOT NULL,
      supergraph_sha256 text NOT NULL,
      supergraph text NOT NULL,
      routes text NOT NULL,
      subgraphs jsonb NOT NULL,
      signature text NOT NULL
    )
    `,
    sql`
    -- The history is append-only: whoever may write rows may still not rewrite what happened.
    CREATE FUNCTION registry_version_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'registry_version is append-only';
    END;
    $$
    `,
    sql`
    CREATE TRIGGER registry_version_append_only BEFORE UPDATE OR DELETE ON registry_version
      FOR EACH ROW EXECUTE FUNCTION registry_version_append_only()
    `,
    sql`
    CREATE TABLE registry_usage_count (
      hour timestamptz NOT NULL,
      operation_hash text NOT NULL,
      client text NOT NULL,
      count bigint NOT NULL CHECK (count > 0),
      PRIMARY KEY (operation_hash, hour, client)
    )
    `,
    sql`
    CREATE INDEX registry_usage_count_hour ON registry_usage_count (hour)
    `,
    sql`
    CREATE TABLE registry_usage_operation (
      operation_hash text PRIMARY KEY,
      coordinates text[] NOT NULL,
      last_seen timestamptz NOT NULL
    )
    `,
    sql`
    CREATE INDEX registry_usage_operation_coordinates ON registry_usage_operation USING gin (coordinates)
    `,
  ]) {
    await statement.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE registry_usage_operation, registry_usage_count, registry_version, registry_subgraph`.execute(db);
  await sql`DROP FUNCTION registry_version_append_only()`.execute(db);
}
