import type { AssetRegistry } from "@compliance-graph/dti-assets";
import { newestBundledSanctionsList, readSanctionsList } from "@compliance-graph/sanctions-lists";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { importSanctionsList, type SanctionsImportReport } from "./import-sanctions-list.js";

/**
 * At start: when no list version was ever imported, imports the newest snapshot kept in the
 * repository, so that a fresh `npm start` screens every proof out of the box. Once any version is
 * there the operator's imports decide (an older bundled snapshot never replaces a newer import).
 * Returns the import's report, or undefined when a list was already there.
 */
export async function loadBundledSanctionsList(db: Kysely<AopdDatabase>, registry: AssetRegistry): Promise<SanctionsImportReport | undefined> {
  const any = await db.selectFrom("aopd_sanctions_list").select("id").limit(1).executeTakeFirst();
  if (any) return undefined;
  return importSanctionsList(db, registry, await readSanctionsList([newestBundledSanctionsList()]));
}
