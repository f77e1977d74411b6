import { AssetRegistry } from "@compliance-graph/dti-assets";
import { sql, type Kysely } from "kysely";
import { recordScreeningChangesAsEvents, stopRecordingScreeningChanges } from "../../events/record-proof-event-trigger.js";
import { createScreenProofTrigger, dropScreenProofTrigger } from "../../screening/screen-proof-trigger.js";
import { syncScreenedAssets } from "../../screening/sync-screened-assets.js";

/**
 * Sanctions screening (docs/screening.md):
 * - `aopd_sanctions_list`: each imported list version (publication date, source, content hash; a
 *   version's hash is unique, which makes importing it again a no-op);
 * - `aopd_sanctions_entry`: its addresses, each with the family of ours it is screened on (null:
 *   no network of `AopdAsset`, kept and counted) and its key (`aopd_screening_key`); versions are
 *   kept, so what was added and removed between two can always be told;
 * - `aopd_screened_asset`: the family of each screened asset, from the asset registry;
 * - on `aopd_proof`, the screening: status, the list and version that set it, when, and the entry
 *   matched. A result stands until a later version changes it (see rescreen-proofs.ts);
 * - the trigger that screens each proof as its address is written, and proof events for
 *   screening changes.
 * No list is loaded here: aopd loads the newest bundled snapshot at its first start
 * (load-bundled-sanctions-list.ts), so a test database starts without one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_sanctions_list (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      list_name text NOT NULL,
      published_on date NOT NULL,
      source text NOT NULL,
      content_hash text NOT NULL,
      imported_at timestamptz(3) NOT NULL DEFAULT now(),
      address_count integer NOT NULL,
      unmapped_count integer NOT NULL,
      CONSTRAINT aopd_sanctions_list_version UNIQUE (list_name, content_hash)
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_sanctions_list_newest ON aopd_sanctions_list (published_on DESC, id DESC)`.execute(db);
  await sql`
    CREATE TABLE aopd_sanctions_entry (
      list_id integer NOT NULL REFERENCES aopd_sanctions_list ON DELETE CASCADE,
      ofac_asset text COLLATE "C" NOT NULL,
      address text COLLATE "C" NOT NULL,
      address_family text CHECK (address_family IN ('bitcoin', 'ethereum', 'tron', 'solana')),
      address_key text COLLATE "C",
      sdn_uid text,
      sdn_name text,
      CHECK ((address_family IS NULL) = (address_key IS NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_sanctions_entry_match ON aopd_sanctions_entry (list_id, address_family, address_key)`.execute(db);
  await sql`
    CREATE TABLE aopd_screened_asset (
      asset text COLLATE "C" PRIMARY KEY,
      address_family text NOT NULL CHECK (address_family IN ('bitcoin', 'ethereum', 'tron', 'solana'))
    )
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN screening_status text NOT NULL DEFAULT 'NOT_SCREENED' CHECK (screening_status IN ('CLEAR', 'LISTED', 'NOT_SCREENED')),
      ADD COLUMN screening_list text,
      ADD COLUMN screening_list_version text,
      ADD COLUMN screened_at timestamptz(3),
      ADD COLUMN screening_entry_asset text,
      ADD COLUMN screening_entry_address text,
      ADD COLUMN screening_entry_uid text,
      ADD COLUMN screening_entry_name text
  `.execute(db);
  // Filters by screening (LISTED proofs first of all) in the default order, and the sort by it.
  await sql`CREATE INDEX aopd_proof_screening_created_idx ON aopd_proof (screening_status, created_at, id)`.execute(db);
  await sql`CREATE INDEX aopd_proof_screening_idx ON aopd_proof (screening_status, id)`.execute(db);
  await createScreenProofTrigger(db);
  await recordScreeningChangesAsEvents(db);
  await syncScreenedAssets(db, AssetRegistry.load());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await stopRecordingScreeningChanges(db);
  await dropScreenProofTrigger(db);
  await sql`DROP INDEX aopd_proof_screening_idx`.execute(db);
  await sql`DROP INDEX aopd_proof_screening_created_idx`.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP COLUMN screening_status,
      DROP COLUMN screening_list,
      DROP COLUMN screening_list_version,
      DROP COLUMN screened_at,
      DROP COLUMN screening_entry_asset,
      DROP COLUMN screening_entry_address,
      DROP COLUMN screening_entry_uid,
      DROP COLUMN screening_entry_name
  `.execute(db);
  await sql`DROP TABLE aopd_screened_asset`.execute(db);
  await sql`DROP TABLE aopd_sanctions_entry`.execute(db);
  await sql`DROP TABLE aopd_sanctions_list`.execute(db);
}
