import { sql, type Kysely } from "kysely";

/**
 * The database half of screening: how an address becomes a key of the list, and the trigger that
 * screens every proof whose address is written. Migration 0016 creates them with exactly this SQL.
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
// Kysely<any>: migrations run against the schema as it is at their point in history.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createScreenProofTrigger(db: Kysely<any>): Promise<void> {
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

/** Undoes `createScreenProofTrigger` (migration 0016's `down`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropScreenProofTrigger(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_screened ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_screen_proof()`.execute(db);
  await sql`DROP FUNCTION aopd_screen_address(text, text)`.execute(db);
  await sql`DROP FUNCTION aopd_screening_key(text, text)`.execute(db);
}
