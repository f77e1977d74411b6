import { sql, type Kysely } from "kysely";

/**
 * The proof table and the indexes behind every filter and sort of the API:
 * - btree on (created_at, id) and (status, created_at, id): the default order, time ranges and
 *   status filters; id last so that ties are broken the same way the queries break them;
 * - btree on (customer_id, created_at, id), (asset, created_at, id), (address, id), (comment, id):
 *   equality filters and sorts on those fields;
 * - trigram GIN on the free-text fields: `ilike '%part%'` without a scan.
 * Text columns use the C collation so that sort order and ASCII-only case folding are the same on
 * every server and on PGlite, whatever their locale.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`
    CREATE TABLE aopd_proof (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('signature', 'satoshi')),
      status text NOT NULL CHECK (status IN ('PENDING', 'SUBMITTED', 'VERIFIED', 'FAILED', 'EXPIRED')),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      due_at timestamptz(3),
      customer_id text COLLATE "C" NOT NULL CHECK (customer_id <> ''),
      asset text COLLATE "C" NOT NULL,
      address text COLLATE "C" NOT NULL,
      comment text COLLATE "C",
      format text CHECK (format IN ('ANY', 'STANDARD', 'P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR')),
      message text COLLATE "C",
      signature text,
      xpub text COLLATE "C",
      amount numeric(78, 0) CHECK (amount >= 0),
      deposit_address text COLLATE "C",
      tx_id text COLLATE "C",
      assessment text CHECK (assessment IN ('VERIFIED', 'FAILED')),
      CONSTRAINT aopd_proof_kind_columns CHECK (
        (kind = 'satoshi' AND amount IS NOT NULL AND deposit_address IS NOT NULL AND format IS NULL AND signature IS NULL AND xpub IS NULL)
        OR (kind = 'signature' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND assessment IS NULL)
      )
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_proof_created_idx ON aopd_proof (created_at, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_status_created_idx ON aopd_proof (status, created_at, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_customer_created_idx ON aopd_proof (customer_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_asset_created_idx ON aopd_proof (asset, created_at, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_address_idx ON aopd_proof (address, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_comment_idx ON aopd_proof (comment, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_due_pending_idx ON aopd_proof (due_at) WHERE status = 'PENDING'`.execute(db);
  for (const column of ["address", "customer_id", "comment", "xpub"]) {
    await sql`CREATE INDEX ${sql.id(`aopd_proof_${column}_trgm_idx`)} ON aopd_proof USING gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE aopd_proof`.execute(db);
}
