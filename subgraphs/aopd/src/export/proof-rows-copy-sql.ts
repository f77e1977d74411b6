import type { FilterLimits } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { inlineQueryParameters } from "../database/inline-query-parameters.js";
import { selectProofs } from "../proofs/proof-query.js";
import { proofOrder } from "../proofs/proof-sort.js";
import { proofExportColumns } from "./proof-export-columns.js";

const orderSql = proofOrder(undefined)
  .map((term) => `p.${term.column} ${term.direction}`)
  .join(", ");

/**
 * An instant as whole milliseconds since 1970, as `pg` reads it into a Date (the fraction below a
 * millisecond dropped): the transcoder reads an integer instead of parsing a date.
 */
const epochMillisecondsSql = (value: string) => `floor(extract(epoch FROM ${value}) * 1000)::bigint`;

/**
 * The `COPY ... TO STDOUT` of an export: the raw value of each column of `proofExportColumns` (its `sql`), per
 * proof matching `filter`, in the export's order (instants as milliseconds since 1970). COPY takes no parameters, so the filter's
 * values are written in as literals (`inlineQueryParameters`).
 */
export function proofRowsCopySql(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits): string {
  const proofs = selectProofs(db, filter, undefined, limits).compile();
  const values = proofExportColumns.map((column) => (column.type === "date" ? epochMillisecondsSql(column.sql) : column.sql)).join(", ");
  return `COPY (SELECT ${values} FROM (${inlineQueryParameters(proofs.sql, proofs.parameters)}) AS p ORDER BY ${orderSql}) TO STDOUT`;
}
