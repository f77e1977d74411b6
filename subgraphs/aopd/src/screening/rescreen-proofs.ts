import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ScreeningStatus } from "../database/database-schema.js";

/** A proof whose screening a re-screening changed. */
export interface ScreeningChange {
  proofId: string;
  from: ScreeningStatus;
  to: ScreeningStatus;
}

/**
 * Screens every proof with an address again against the newest list version: one UPDATE, however
 * many proofs there are. A proof's candidates are its address and, where its signature revealed a
 * key, the other addresses that key controls (`key_addresses`); the address first, then the
 * siblings in their order, and the first hit is the match (`aopd_screen_addresses` decides alike). The newest version's entries (a few thousand at most) are hashed once and
 * every proof is keyed with `aopd_screening_key` in a single pass (a hash join, not a lookup per
 * proof), and only the proofs whose result changes are written: a new version that adds five
 * addresses writes five rows, not a million. A result that stands keeps the version and time that
 * set it (docs/screening.md). The table's trigger records a `SCREENING_CHANGED` event for each
 * change to or from LISTED, in this statement's transaction.
 *
 * `updated_at` is left alone on purpose. Threat: tipping off. The customer's portal page follows its
 * proof's events and shows when the proof last changed; a re-screening that moved that time would
 * tell a customer, at the moment OFAC listed their address, that something happened. The
 * screening has its own time (`screened_at`), which only officers see; the portal stream skips an
 * event that leaves `updated_at` as it was.
 *
 * Returns the changes, for the audit trail (`appendScreeningChangesToAuditTrail`). Run inside the
 * import's transaction, so an import and its re-screening commit together.
 */
export async function rescreenProofs(trx: Kysely<AopdDatabase>): Promise<ScreeningChange[]> {
  const { rows } = await sql<{ id: string; from: ScreeningStatus; to: ScreeningStatus }>`
    WITH newest AS (
      SELECT id, list_name, to_char(published_on, 'YYYY-MM-DD') AS version
      FROM aopd_sanctions_list ORDER BY published_on DESC, id DESC LIMIT 1
    ),
    entries AS (
      SELECT DISTINCT ON (address_family, address_key) address_family, address_key, ofac_asset, address, sdn_uid, sdn_name
      FROM aopd_sanctions_entry
      WHERE list_id = (SELECT id FROM newest) AND address_family IS NOT NULL
      ORDER BY address_family, address_key, ofac_asset, address
    ),
    candidates AS (
      SELECT p.id, 0::bigint AS rank, a.address_family AS family, 'PROVEN_ADDRESS' AS form, p.address
      FROM aopd_proof AS p JOIN aopd_screened_asset AS a ON a.asset = p.asset
      WHERE p.address IS NOT NULL
      UNION ALL
      SELECT p.id, k.rank, k.value->>'family', k.value->>'form', k.value->>'address'
      FROM aopd_proof AS p
      JOIN aopd_screened_asset AS a ON a.asset = p.asset
      CROSS JOIN LATERAL jsonb_array_elements(p.key_addresses) WITH ORDINALITY AS k(value, rank)
      WHERE p.address IS NOT NULL AND p.key_addresses IS NOT NULL
    ),
    hits AS (
      SELECT DISTINCT ON (c.id) c.id, c.form, c.address AS matched, e.ofac_asset, e.address, e.sdn_uid, e.sdn_name
      FROM candidates AS c
      JOIN entries AS e ON e.address_family = c.family AND e.address_key = aopd_screening_key(c.family, c.address)
      ORDER BY c.id, c.rank
    ),
    screened AS (
      SELECT p.id, p.screening_status AS previous, CASE WHEN h.address IS NULL THEN 'CLEAR' ELSE 'LISTED' END AS status,
        h.ofac_asset, h.address, h.sdn_uid, h.sdn_name, h.form, h.matched
      FROM aopd_proof AS p
      JOIN aopd_screened_asset AS a ON a.asset = p.asset
      LEFT JOIN hits AS h ON h.id = p.id
      WHERE p.address IS NOT NULL
        AND (p.screening_status, p.screening_entry_asset, p.screening_entry_address, p.screening_entry_uid, p.screening_entry_name, p.screening_matched_form, p.screening_matched_address)
          IS DISTINCT FROM (CASE WHEN h.address IS NULL THEN 'CLEAR' ELSE 'LISTED' END, h.ofac_asset, h.address, h.sdn_uid, h.sdn_name, h.form, h.matched)
    )
    UPDATE aopd_proof AS p
    SET screening_status = s.status,
      screening_list = n.list_name,
      screening_list_version = n.version,
      screened_at = now(),
      screening_entry_asset = s.ofac_asset,
      screening_entry_address = s.address,
      screening_entry_uid = s.sdn_uid,
      screening_entry_name = s.sdn_name,
      screening_matched_form = s.form,
      screening_matched_address = s.matched
    FROM screened AS s, newest AS n
    WHERE p.id = s.id
    RETURNING p.id, s.previous AS "from", s.status AS "to"
  `.execute(trx);
  return rows.map((row) => ({ proofId: row.id, from: row.from, to: row.to }));
}
