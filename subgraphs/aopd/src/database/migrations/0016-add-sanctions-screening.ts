import { AssetRegistry } from "@compliance-graph/dti-assets";
import { sql, type Kysely } from "kysely";
import { createRecordProofEventTrigger } from "./0004-add-proof-event-log.js";

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
 * (load-bundled-sanctions-list.ts), so a test database starts without one. This file keeps its SQL
 * as it was written (a test pins its text): a later change is a new migration.
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
  // The screened assets as the registry has them now (syncScreenedAssets writes them again at every start).
  const screened = AssetRegistry.load().assets.filter((asset) => asset.addressFamily !== null && ["bitcoin", "ethereum", "tron", "solana"].includes(asset.addressFamily));
  await sql`INSERT INTO aopd_screened_asset (asset, address_family) SELECT * FROM unnest(${screened.map((asset) => asset.code)}::text[], ${screened.map((asset) => asset.addressFamily)}::text[])`.execute(db);
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

/**
 * The database half of screening: how an address becomes a key of the list, and the trigger that
 * screens every proof whose address is written.
 *
 * - `aopd_screening_key(family, address)`: addresses compared as their network compares them. EVM
 *   addresses are hex, so case carries no meaning (the list's mixed case is a checksum, and not a
 *   reliable one): lower case. Bitcoin's bech32 addresses are case-insensitive by definition: lower
 *   case. Base58 (Bitcoin's legacy addresses, TRON) is case-sensitive: exactly as written, so one
 *   letter's case changed is another address. The importer keys the list's entries and the
 *   screening keys the proof's address with this one function, so the two cannot drift apart.
 * - `aopd_screen_address(asset, address)`: one address against the newest list version.
 * - `aopd_screen_proof` runs BEFORE every INSERT, and every UPDATE that writes the address (a
 *   signature naming the address of a proof requested without one): whichever write path makes
 *   the address known, it is screened in that statement against the newest list version, and the
 *   result is part of the row, of its event and of its transaction. No request path can forget it.
 * - A proof whose asset has no screened family (`aopd_screened_asset` lacks it: Lightning) or that
 *   is written before any list was imported stays `NOT_SCREENED`.
 *
 * Re-screening after an import is one UPDATE over all proofs (`rescreenProofs`), which writes only
 * the screening columns, so this trigger does not run for it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createScreenProofTrigger(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION aopd_screening_key(family text, address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN family = 'ethereum' THEN lower(address)
        WHEN family = 'bitcoin' AND lower(address) ~ '^(bc|tb|bcrt)1' THEN lower(address)
        ELSE address
      END
    $$
  `.execute(db);
  // One address against the newest list version: the trigger's lookup, and `screenAddress`'s.
  // No row when nothing is screened (no list yet, or an asset of no screened family).
  await sql`
    CREATE FUNCTION aopd_screen_address(screened_asset text, screened_address text)
    RETURNS TABLE (status text, list_name text, list_version text, entry_asset text, entry_address text, entry_uid text, entry_name text)
    LANGUAGE sql STABLE AS $$
      SELECT
        CASE WHEN hit.address IS NULL THEN 'CLEAR' ELSE 'LISTED' END,
        newest.list_name,
        to_char(newest.published_on, 'YYYY-MM-DD'),
        hit.ofac_asset, hit.address, hit.sdn_uid, hit.sdn_name
      FROM aopd_screened_asset AS screened
      CROSS JOIN (SELECT id, list_name, published_on FROM aopd_sanctions_list ORDER BY published_on DESC, id DESC LIMIT 1) AS newest
      LEFT JOIN LATERAL (
        SELECT ofac_asset, address, sdn_uid, sdn_name
        FROM aopd_sanctions_entry
        WHERE list_id = newest.id
          AND address_family = screened.address_family
          AND address_key = aopd_screening_key(screened.address_family, screened_address)
        ORDER BY ofac_asset, address
        LIMIT 1
      ) AS hit ON true
      WHERE screened.asset = screened_asset
    $$
  `.execute(db);
  await sql`
    CREATE FUNCTION aopd_screen_proof() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      result record;
    BEGIN
      IF TG_OP = 'UPDATE' AND NEW.address IS NOT DISTINCT FROM OLD.address THEN
        RETURN NEW;
      END IF;
      SELECT * INTO result FROM aopd_screen_address(NEW.asset, NEW.address) WHERE NEW.address IS NOT NULL;
      IF NOT FOUND THEN
        NEW.screening_status := 'NOT_SCREENED';
        NEW.screened_at := NULL;
        NEW.screening_list := NULL;
        NEW.screening_list_version := NULL;
        NEW.screening_entry_asset := NULL;
        NEW.screening_entry_address := NULL;
        NEW.screening_entry_uid := NULL;
        NEW.screening_entry_name := NULL;
        RETURN NEW;
      END IF;
      NEW.screening_status := result.status;
      NEW.screened_at := now();
      NEW.screening_list := result.list_name;
      NEW.screening_list_version := result.list_version;
      NEW.screening_entry_asset := result.entry_asset;
      NEW.screening_entry_address := result.entry_address;
      NEW.screening_entry_uid := result.entry_uid;
      NEW.screening_entry_name := result.entry_name;
      RETURN NEW;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_screened BEFORE INSERT OR UPDATE OF address ON aopd_proof
    FOR EACH ROW EXECUTE FUNCTION aopd_screen_proof()
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropScreenProofTrigger(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_screened ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_screen_proof()`.execute(db);
  await sql`DROP FUNCTION aopd_screen_address(text, text)`.execute(db);
  await sql`DROP FUNCTION aopd_screening_key(text, text)`.execute(db);
}

/**
 * The recording function of migration 0004, which names the change of an update by what changed, and
 * the update trigger, which fires for a change of status and for a screening change that involves
 * `LISTED`. When both change in one statement, one event (`STATUS_CHANGED`) carries both. A
 * re-screening that lists a proof's address, or clears one listed before, is an event
 * (`SCREENING_CHANGED`); a first screening that finds nothing (`NOT_SCREENED` to `CLEAR`) is not,
 * so the first import over a million proofs does not flood subscribers with news of nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function recordScreeningChangesAsEvents(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof_event DROP CONSTRAINT aopd_proof_event_change_check`.execute(db);
  await sql`ALTER TABLE aopd_proof_event ADD CONSTRAINT aopd_proof_event_change_check CHECK (change IN ('CREATED', 'STATUS_CHANGED', 'SCREENING_CHANGED'))`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_record_proof_event() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      change text;
    BEGIN
      IF current_setting('aopd.record_events', true) = 'off' THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'INSERT' THEN
        change := 'CREATED';
      ELSIF OLD.status IS DISTINCT FROM NEW.status THEN
        change := 'STATUS_CHANGED';
      ELSE
        change := 'SCREENING_CHANGED';
      END IF;
      INSERT INTO aopd_proof_event (change, proof) VALUES (change, to_jsonb(NEW) - 'callback_token_hash');
      PERFORM pg_notify('aopd_proof_writes', '');
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_status_changed AFTER UPDATE OF status, screening_status ON aopd_proof
    FOR EACH ROW WHEN (
      OLD.status IS DISTINCT FROM NEW.status
      OR (OLD.screening_status IS DISTINCT FROM NEW.screening_status AND 'LISTED' IN (OLD.screening_status, NEW.screening_status))
    ) EXECUTE FUNCTION aopd_record_proof_event()
  `.execute(db);
}

/** Undoes `recordScreeningChangesAsEvents` (migration 0016's `down`): the trigger and function as migration 0004 made them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function stopRecordingScreeningChanges(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_record_proof_event() CASCADE`.execute(db);
  await sql`DROP TRIGGER IF EXISTS aopd_proof_created ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_sequence_proof_events(integer)`.execute(db);
  await sql`DELETE FROM aopd_proof_event WHERE change = 'SCREENING_CHANGED'`.execute(db);
  await sql`ALTER TABLE aopd_proof_event DROP CONSTRAINT aopd_proof_event_change_check`.execute(db);
  await sql`ALTER TABLE aopd_proof_event ADD CONSTRAINT aopd_proof_event_change_check CHECK (change IN ('CREATED', 'STATUS_CHANGED'))`.execute(db);
  await createRecordProofEventTrigger(db);
}
