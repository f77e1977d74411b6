import type { AssetRegistry } from "@compliance-graph/dti-assets";
import { screenedFamilies, type ScreenedFamily } from "@compliance-graph/sanctions-lists";
import { sql, type Kysely } from "kysely";

/**
 * Writes which assets are screened on which address family (`aopd_screened_asset`), from the asset
 * registry: the screening trigger and the re-screening UPDATE read the family of a proof's asset
 * from this table, since the registry lives in a file the database cannot read. Every EVM asset
 * (Ether, BNB, POL, their tokens) is `ethereum`: one listed EVM address is listed on each.
 * Run by migration 0016, at every start and before every import, so a registry grown by
 * `npm run import-dti` is screened from the next start on. Two statements, on the executor given
 * (the migration's and the import's transaction).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function syncScreenedAssets(db: Kysely<any>, registry: AssetRegistry): Promise<void> {
  const screened = registry.assets.filter((asset) => screenedFamilies.includes(asset.addressFamily as ScreenedFamily));
  const codes = screened.map((asset) => asset.code);
  const families = screened.map((asset) => asset.addressFamily as string);
  await sql`DELETE FROM aopd_screened_asset WHERE NOT (asset = ANY(${codes}::text[]))`.execute(db);
  if (codes.length === 0) return;
  await sql`
    INSERT INTO aopd_screened_asset (asset, address_family)
    SELECT * FROM unnest(${codes}::text[], ${families}::text[])
    ON CONFLICT (asset) DO UPDATE SET address_family = excluded.address_family
    WHERE aopd_screened_asset.address_family IS DISTINCT FROM excluded.address_family
  `.execute(db);
}
