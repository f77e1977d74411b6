import { sql, type Kysely } from "kysely";

/**
 * Screening every address a proof's key controls, and the BNB Beacon Chain (docs/screening.md):
 *
 * - `aopd_sanctions_entry.address_family` takes `bnb-beacon`: OFAC lists `BNB` addresses
 *   (`bnb1...`) from 2025-11-19. No asset of ours lives on that retired chain; its entries match
 *   the Beacon Chain address of a key an EVM or TRON signature reveals. `aopd_screening_key`
 *   lower-cases them, as bech32 is case-insensitive by definition.
 * - `aopd_proof.key_addresses`: where a signature reveals the signer's public key, the addresses
 *   that one key controls on its chain family, each `{ "form", "family", "address" }` (forms:
 *   `P2PKH`, `P2WPKH`, `P2SH_P2WPKH` for a Bitcoin key; `EVM`, `TRON`, `BNB_BEACON` for the
 *   secp256k1 key behind an EVM or TRON address). Null where no key is known (no signature yet,
 *   a Satoshi or media proof, a contract wallet, Solana, Taproot).
 * - `screening_matched_form` and `screening_matched_address`: which of the proof's addresses
 *   matched: `PROVEN_ADDRESS` (the address the proof is about) or a key sibling's form, and that
 *   address as ours spells it. Null unless LISTED.
 * - `aopd_screen_addresses(asset, address, key_addresses)`: the proof's address first, then its
 *   siblings in the order written, against the newest list version; the first hit wins. The
 *   screening trigger now runs on it and fires when the address or the key's addresses are
 *   written (the signature's UPDATE writes both at once).
 * This file keeps its SQL as it was written (a test pins its text): a later change is a new migration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_sanctions_entry DROP CONSTRAINT aopd_sanctions_entry_address_family_check`.execute(db);
  await sql`
    ALTER TABLE aopd_sanctions_entry ADD CONSTRAINT aopd_sanctions_entry_address_family_check
    CHECK (address_family IN ('bitcoin', 'ethereum', 'tron', 'solana', 'bnb-beacon'))
  `.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_screening_key(family text, address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN family = 'ethereum' THEN lower(address)
        WHEN family = 'bitcoin' AND lower(address) ~ '^(bc|tb|bcrt)1' THEN lower(address)
        WHEN family = 'bnb-beacon' THEN lower(address)
        ELSE address
      END
    $$
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN key_addresses jsonb CHECK (key_addresses IS NULL OR jsonb_typeof(key_addresses) = 'array'),
      ADD COLUMN screening_matched_form text,
      ADD COLUMN screening_matched_address text
  `.execute(db);
  // Every address of the proof's key the list could name: the proof's own (rank 0) and its siblings.
  // No row when nothing is screened (no list yet, or an asset of no screened family), as aopd_screen_address.
  await sql`
    CREATE FUNCTION aopd_screen_addresses(screened_asset text, screened_address text, key_addresses jsonb)
    RETURNS TABLE (status text, list_name text, list_version text, entry_asset text, entry_address text, entry_uid text, entry_name text, matched_form text, matched_address text)
    LANGUAGE sql STABLE AS $$
      WITH newest AS (
        SELECT id, list_name, published_on FROM aopd_sanctions_list ORDER BY published_on DESC, id DESC LIMIT 1
      ),
      candidate AS (
        SELECT 0::bigint AS rank, screened.address_family AS family, 'PROVEN_ADDRESS' AS form, screened_address AS address
        FROM aopd_screened_asset AS screened WHERE screened.asset = screened_asset
        UNION ALL
        SELECT sibling.rank, sibling.value->>'family', sibling.value->>'form', sibling.value->>'address'
        FROM jsonb_array_elements(coalesce(key_addresses, '[]'::jsonb)) WITH ORDINALITY AS sibling(value, rank)
      ),
      hit AS (
        SELECT candidate.form, candidate.address AS matched, entry.ofac_asset, entry.address, entry.sdn_uid, entry.sdn_name
        FROM candidate
        JOIN aopd_sanctions_entry AS entry
          ON entry.list_id = (SELECT id FROM newest)
          AND entry.address_family = candidate.family
          AND entry.address_key = aopd_screening_key(candidate.family, candidate.address)
        ORDER BY candidate.rank, entry.ofac_asset, entry.address
        LIMIT 1
      )
      SELECT
        CASE WHEN hit.address IS NULL THEN 'CLEAR' ELSE 'LISTED' END,
        newest.list_name,
        to_char(newest.published_on, 'YYYY-MM-DD'),
        hit.ofac_asset, hit.address, hit.sdn_uid, hit.sdn_name, hit.form, hit.matched
      FROM newest
      JOIN aopd_screened_asset AS screened ON screened.asset = screened_asset
      LEFT JOIN hit ON true
    $$
  `.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_screen_proof() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      result record;
    BEGIN
      IF TG_OP = 'UPDATE' AND NEW.address IS NOT DISTINCT FROM OLD.address AND NEW.key_addresses IS NOT DISTINCT FROM OLD.key_addresses THEN
        RETURN NEW;
      END IF;
      SELECT * INTO result FROM aopd_screen_addresses(NEW.asset, NEW.address, NEW.key_addresses) WHERE NEW.address IS NOT NULL;
      IF NOT FOUND THEN
        NEW.screening_status := 'NOT_SCREENED';
        NEW.screened_at := NULL;
        NEW.screening_list := NULL;
        NEW.screening_list_version := NULL;
        NEW.screening_entry_asset := NULL;
        NEW.screening_entry_address := NULL;
        NEW.screening_entry_uid := NULL;
        NEW.screening_entry_name := NULL;
        NEW.screening_matched_form := NULL;
        NEW.screening_matched_address := NULL;
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
      NEW.screening_matched_form := result.matched_form;
      NEW.screening_matched_address := result.matched_address;
      RETURN NEW;
    END
    $$
  `.execute(db);
  await sql`DROP TRIGGER aopd_proof_screened ON aopd_proof`.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_screened BEFORE INSERT OR UPDATE OF address, key_addresses ON aopd_proof
    FOR EACH ROW EXECUTE FUNCTION aopd_screen_proof()
  `.execute(db);
  // The proofs LISTED before this migration matched their own address.
  await sql`UPDATE aopd_proof SET screening_matched_form = 'PROVEN_ADDRESS', screening_matched_address = address WHERE screening_status = 'LISTED'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_screened ON aopd_proof`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_screen_proof() RETURNS trigger LANGUAGE plpgsql AS $$
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
  await sql`DROP FUNCTION aopd_screen_addresses(text, text, jsonb)`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP COLUMN key_addresses, DROP COLUMN screening_matched_form, DROP COLUMN screening_matched_address`.execute(db);
  await sql`DELETE FROM aopd_sanctions_entry WHERE address_family = 'bnb-beacon'`.execute(db);
  await sql`ALTER TABLE aopd_sanctions_entry DROP CONSTRAINT aopd_sanctions_entry_address_family_check`.execute(db);
  await sql`ALTER TABLE aopd_sanctions_entry ADD CONSTRAINT aopd_sanctions_entry_address_family_check CHECK (address_family IN ('bitcoin', 'ethereum', 'tron', 'solana'))`.execute(db);
}
