import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ScreenedAddressForm } from "../database/database-schema.js";
import type { KeyAddress } from "../ownership/index.js";
import type { Screening } from "./screening.js";

/**
 * One address of one asset, and the addresses its key controls where known, against the newest list
 * version, as the screening trigger screens a proof (`aopd_screen_addresses`, migration 0023): for a
 * check before a proof exists (the refusal policy) and for the benchmarks. NOT_SCREENED when no list
 * was imported or the asset's family is not screened.
 */
export async function screenAddress(db: Kysely<AopdDatabase>, asset: string, address: string, keyAddresses: readonly KeyAddress[] = []): Promise<Screening> {
  const { rows } = await sql<{
    status: "CLEAR" | "LISTED";
    list_name: string;
    list_version: string;
    entry_asset: string | null;
    entry_address: string | null;
    entry_uid: string | null;
    entry_name: string | null;
    matched_form: ScreenedAddressForm | null;
    matched_address: string | null;
  }>`SELECT * FROM aopd_screen_addresses(${asset}, ${address}, ${keyAddresses.length ? JSON.stringify(keyAddresses) : null}::jsonb)`.execute(db);
  const row = rows[0];
  if (!row) return { status: "NOT_SCREENED", list: null, listVersion: null, screenedAt: null, matchedEntry: null, matchedForm: null, matchedAddress: null };
  return {
    status: row.status,
    list: row.list_name,
    listVersion: row.list_version,
    screenedAt: new Date(),
    matchedEntry:
      row.entry_asset && row.entry_address ? { asset: row.entry_asset, address: row.entry_address, sdnUid: row.entry_uid, sdnName: row.entry_name } : null,
    matchedForm: row.matched_form,
    matchedAddress: row.matched_address,
  };
}
