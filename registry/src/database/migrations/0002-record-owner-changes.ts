import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One statement per call: PGlite runs a parameterized query as one prepared statement.
  for (const statement of [
    sql`
    CREATE TABLE registry_owner_change (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subgraph text NOT NULL,
      actor_subject text NOT NULL,
      actor_client text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      owners_before text[] NOT NULL,
      owners_after text[] NOT NULL
    )
    `,
    sql`
    CREATE INDEX registry_owner_change_subgraph ON registry_owner_change (subgraph, id)
    `,
    sql`
    -- Who may publish a subgraph is part of its history: append-only like the versions.
    CREATE FUNCTION registry_owner_change_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'registry_owner_change is append-only';
    END;
    $$
    `,
    sql`
    CREATE TRIGGER registry_owner_change_append_only BEFORE UPDATE OR DELETE ON registry_owner_change
      FOR EACH ROW EXECUTE FUNCTION registry_owner_change_append_only()
    `,
  ]) {
    await statement.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE registry_owner_change`.execute(db);
  await sql`DROP FUNCTION registry_owner_change_append_only()`.execute(db);
}
