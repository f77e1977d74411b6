import { sql, type Kysely } from "kysely";

/**
 * The commercial screening provider's result beside the list's (docs/screening.md): which
 * provider, what it said (its identifications, as it gave them) and when; and the lease that keeps
 * replicas from asking about one proof twice at once (`provider_screening_taken_at`, also the order
 * proofs are asked about, least recently tried first). All null until the provider answered, and
 * always null where no provider is configured.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN provider_screening_status text CHECK (provider_screening_status IN ('CLEAR', 'LISTED')),
      ADD COLUMN provider_screening_name text,
      ADD COLUMN provider_screened_at timestamptz(3),
      ADD COLUMN provider_identifications jsonb,
      ADD COLUMN provider_screening_taken_at timestamptz(3)
  `.execute(db);
  await sql`
    CREATE INDEX aopd_proof_provider_queue ON aopd_proof (provider_screening_taken_at NULLS FIRST)
    WHERE address IS NOT NULL AND provider_screened_at IS NULL
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX aopd_proof_provider_queue`.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP COLUMN provider_screening_status,
      DROP COLUMN provider_screening_name,
      DROP COLUMN provider_screened_at,
      DROP COLUMN provider_identifications,
      DROP COLUMN provider_screening_taken_at
  `.execute(db);
}
