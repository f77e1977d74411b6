import { sql, type Kysely } from "kysely";

/**
 * The audit trail as an RFC 9162 Merkle tree with signed checkpoints (docs/audit-transparency.md):
 *
 * - `aopd_audit_tree_node`: every complete subtree's hash, by level (0: the leaves) and index
 *   (the subtree covers leaves `index * 2^level` to `(index + 1) * 2^level - 1`); a leaf is the
 *   chained entry at `seq = index + 1`. Any proof or root is a fold of at most two per level, read
 *   in one query. Written by the sequencer only, in the chaining transaction; never changed.
 * - `aopd_audit_head.tree_size`: how many chained entries the stored tree covers (it catches up
 *   with `seq`, so entries chained before this migration become leaves too).
 * - `aopd_audit_checkpoint`: every checkpoint aopd signed (a C2SP signed note), by tree size.
 * - `aopd_audit_cosignature`: the witnesses' cosignatures aopd received and checked, one line
 *   (C2SP tlog-cosignature) per witness and tree size.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_audit_tree_node (
      level smallint NOT NULL CHECK (level >= 0 AND level < 64),
      index bigint NOT NULL CHECK (index >= 0),
      hash bytea NOT NULL CHECK (length(hash) = 32),
      PRIMARY KEY (level, index)
    )
  `.execute(db);
  await sql`ALTER TABLE aopd_audit_head ADD COLUMN tree_size bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`
    CREATE TABLE aopd_audit_checkpoint (
      tree_size bigint PRIMARY KEY CHECK (tree_size > 0),
      root_hash bytea NOT NULL CHECK (length(root_hash) = 32),
      note text COLLATE "C" NOT NULL,
      signed_at timestamptz(3) NOT NULL DEFAULT now()
    )
  `.execute(db);
  await sql`
    CREATE TABLE aopd_audit_cosignature (
      tree_size bigint NOT NULL REFERENCES aopd_audit_checkpoint (tree_size),
      witness text COLLATE "C" NOT NULL,
      signature_line text COLLATE "C" NOT NULL,
      received_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (tree_size, witness)
    )
  `.execute(db);
  for (const table of ["aopd_audit_tree_node", "aopd_audit_checkpoint"]) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_append_only`)} BEFORE UPDATE OR DELETE ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`${table}_no_truncate`)} BEFORE TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE aopd_audit_cosignature`.execute(db);
  await sql`DROP TABLE aopd_audit_checkpoint`.execute(db);
  await sql`ALTER TABLE aopd_audit_head DROP COLUMN tree_size`.execute(db);
  await sql`DROP TABLE aopd_audit_tree_node`.execute(db);
}
