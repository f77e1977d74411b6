import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import type { CursorValues } from "./proof-cursor.js";
import type { OrderTerm, SortColumn } from "./proof-sort.js";

type ProofExpressions = ExpressionBuilder<AopdDatabase, "aopd_proof">;

/** Columns that can hold null; PostgreSQL sorts null last ascending and first descending. */
const nullableColumns: ReadonlySet<SortColumn> = new Set(["address", "comment"]);

/**
 * The rows that come after a cursor in `terms` order: keyset paging, so that page 2,000 costs
 * what page 1 costs (an offset reads and drops every row before it). When every term runs in one
 * direction over columns without nulls, this is one row comparison, `(a, id) > ($1, $2)`, which
 * PostgreSQL answers from the index on those columns. Otherwise it is the expanded form: some
 * prefix of the terms equal and the next one past its value, with nulls placed as ORDER BY places
 * them.
 */
export function afterCursorPredicate(eb: ProofExpressions, terms: readonly OrderTerm[], values: CursorValues): Expression<SqlBool> {
  const direction = terms[0]?.direction;
  const oneDirection = terms.every((term) => term.direction === direction);
  const noNulls = terms.every((term, index) => !nullableColumns.has(term.column) && values[index] !== null);
  if (oneDirection && noNulls && terms.length > 1) {
    const columns = sql.join(terms.map((term) => sql.ref(term.column)));
    return sql<SqlBool>`(${columns}) ${sql.raw(direction === "asc" ? ">" : "<")} (${sql.join([...values])})`;
  }
  const alternatives: Expression<SqlBool>[] = [];
  terms.forEach((term, index) => {
    const equalBefore = terms.slice(0, index).map((earlier, at) => equalTo(eb, earlier.column, values[at] ?? null));
    const past = pastValue(eb, term, values[index] ?? null);
    if (past) alternatives.push(eb.and([...equalBefore, past]));
  });
  return eb.or(alternatives);
}

function equalTo(eb: ProofExpressions, column: SortColumn, value: CursorValues[number]): Expression<SqlBool> {
  return value === null ? eb(column, "is", null) : eb(column, "=", value as never);
}

/** The rows past `value` in one term's order, or undefined when none can be (null, ascending). */
function pastValue(eb: ProofExpressions, term: OrderTerm, value: CursorValues[number]): Expression<SqlBool> | undefined {
  const nullable = nullableColumns.has(term.column);
  if (term.direction === "asc") {
    if (value === null) return undefined;
    const greater = eb(term.column, ">", value as never);
    return nullable ? eb.or([greater, eb(term.column, "is", null)]) : greater;
  }
  if (value === null) return eb(term.column, "is not", null);
  return eb(term.column, "<", value as never);
}
