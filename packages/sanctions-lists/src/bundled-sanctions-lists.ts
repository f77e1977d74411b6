import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The OFAC snapshots kept in the repository (`data/ofac-YYYY-MM-DD/`, from `../shared/data/sanctions/`,
 * see data/README.md), so that a clone screens without downloading anything.
 */
export const bundledSanctionsListsFolder = fileURLToPath(new URL("../data/", import.meta.url));

/** The bundled snapshot folders, oldest first (their names sort by date). */
export function bundledSanctionsLists(): string[] {
  return readdirSync(bundledSanctionsListsFolder)
    .filter((name) => /^ofac-\d{4}-\d{2}-\d{2}$/.test(name))
    .sort()
    .map((name) => `${bundledSanctionsListsFolder}${name}`);
}

/** The newest bundled snapshot: what `npm start` screens with until an operator imports another. */
export function newestBundledSanctionsList(): string {
  const newest = bundledSanctionsLists().at(-1);
  if (!newest) throw new Error(`No ofac-YYYY-MM-DD folder in ${bundledSanctionsListsFolder}.`);
  return newest;
}
