import type { AssetRegistry } from "@compliance-graph/dti-assets";
import type { SanctionsListVersion } from "@compliance-graph/sanctions-lists";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { appendScreeningChangesToAuditTrail } from "./append-screening-changes-to-audit-trail.js";
import { rescreenProofs, type ScreeningChange } from "./rescreen-proofs.js";
import { syncScreenedAssets } from "./sync-screened-assets.js";

/** An entry as the import report names it. */
export interface ListedAddress {
  ofacAsset: string;
  address: string;
}

export interface SanctionsImportReport {
  list: string;
  publishedOn: string;
  source: string;
  contentHash: string;
  /** This exact version (same content hash) was imported before: nothing was written. */
  alreadyImported: boolean;
  /** The version compared with: the newest before this import; null for the first. */
  previousVersion: string | null;
  /** Whether this version is now the one proofs are screened against (an older-dated version is recorded but screens nothing). */
  newest: boolean;
  addresses: number;
  /** Entries of networks `AopdAsset` does not have (kept, never matched). */
  unmapped: number;
  added: ListedAddress[];
  removed: ListedAddress[];
  /** The proofs whose screening the import changed. */
  changes: ScreeningChange[];
}

/** Rows per INSERT of entries: a few thousand parameters per statement, well under PostgreSQL's 65,535. */
const entryBatch = 5_000;

/**
 * Imports one list version and re-screens every proof against it, in one transaction: either the
 * version, its entries and every changed screening are there, or none of it. Idempotent: a version
 * whose content hash was imported before changes nothing. Imports from several replicas or
 * operators at once take turns (a transaction-scoped advisory lock), so two cannot both decide they
 * are first. What was added and removed is reported against the newest version before this one.
 */
export async function importSanctionsList(db: Kysely<AopdDatabase>, registry: AssetRegistry, version: SanctionsListVersion): Promise<SanctionsImportReport> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('aopd_sanctions_import'))`.execute(trx);
    await syncScreenedAssets(trx, registry);
    const previous = await trx
      .selectFrom("aopd_sanctions_list")
      .select(["id", sql<string>`to_char(published_on, 'YYYY-MM-DD')`.as("published")])
      .where("list_name", "=", version.list)
      .orderBy("published_on", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    const report: SanctionsImportReport = {
      list: version.list,
      publishedOn: version.publishedOn,
      source: version.source,
      contentHash: version.contentHash,
      alreadyImported: false,
      previousVersion: previous?.published ?? null,
      newest: false,
      addresses: version.addresses.length,
      unmapped: version.addresses.filter((entry) => entry.family === null).length,
      added: [],
      removed: [],
      changes: [],
    };
    const existing = await trx
      .selectFrom("aopd_sanctions_list")
      .select("id")
      .where("list_name", "=", version.list)
      .where("content_hash", "=", version.contentHash)
      .executeTakeFirst();
    if (existing) return { ...report, alreadyImported: true, previousVersion: null };

    const { id } = await trx
      .insertInto("aopd_sanctions_list")
      .values({
        list_name: version.list,
        published_on: version.publishedOn,
        source: version.source,
        content_hash: version.contentHash,
        address_count: report.addresses,
        unmapped_count: report.unmapped,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let start = 0; start < version.addresses.length; start += entryBatch) {
      const batch = version.addresses.slice(start, start + entryBatch);
      await sql`
        INSERT INTO aopd_sanctions_entry (list_id, ofac_asset, address, address_family, address_key, sdn_uid, sdn_name)
        SELECT ${id}, e.asset, e.address, e.family, CASE WHEN e.family IS NULL THEN NULL ELSE aopd_screening_key(e.family, e.address) END, e.uid, e.name
        FROM unnest(${batch.map((entry) => entry.ofacAsset)}::text[], ${batch.map((entry) => entry.address)}::text[], ${batch.map((entry) => entry.family)}::text[],
          ${batch.map((entry) => entry.sdnUid)}::text[], ${batch.map((entry) => entry.sdnName)}::text[]) AS e(asset, address, family, uid, name)
      `.execute(trx);
    }
    if (previous) {
      report.added = await differenceOf(trx, id, previous.id);
      report.removed = await differenceOf(trx, previous.id, id);
    } else {
      report.added = version.addresses.map(({ ofacAsset, address }) => ({ ofacAsset, address }));
    }
    report.newest = !previous || version.publishedOn >= previous.published;
    if (report.newest) {
      report.changes = await rescreenProofs(trx);
      await appendScreeningChangesToAuditTrail(trx, report.changes, { list: version.list, publishedOn: version.publishedOn });
    }
    return report;
  });
}

/** The entries (asset and address) of one version that the other lacks. */
async function differenceOf(trx: Kysely<AopdDatabase>, of: number, against: number): Promise<ListedAddress[]> {
  const { rows } = await sql<ListedAddress>`
    SELECT ofac_asset AS "ofacAsset", address FROM aopd_sanctions_entry WHERE list_id = ${of}
    EXCEPT
    SELECT ofac_asset, address FROM aopd_sanctions_entry WHERE list_id = ${against}
    ORDER BY 1, 2
  `.execute(trx);
  return rows;
}
