import type { FilterLimits } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { inlineQueryParameters } from "../database/inline-query-parameters.js";
import { selectProofs } from "../proofs/proof-query.js";
import { proofOrder } from "../proofs/proof-sort.js";
import { proofExportSources } from "./proof-export-sources.js";

const orderSql = proofOrder(undefined)
  .map((term) => `p.${term.column} ${term.direction}`)
  .join(", ");

/**
 * The `COPY ... TO STDOUT` of an export: the raw value of each column of `proofExportSources`, per
 * proof matching `filter`, in the export's order. COPY takes no parameters, so the filter's
 * values are written in as literals (`inlineQueryParameters`).
 */
export function proofRowsCopySql(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits): string {
  const proofs = selectProofs(db, filter, undefined, limits).compile();
  const values = proofExportSources.map((source) => source.sql).join(", ");
  return `COPY (SELECT ${values} FROM (${inlineQueryParameters(proofs.sql, proofs.parameters)}) AS p ORDER BY ${orderSql}) TO STDOUT`;
}
