import { compileFilter, defaultFilterLimits, isUuid, type FilterLimits } from "@compliance-graph/filter";
import { LimitExceededError, UserInputError } from "@compliance-graph/errors";
import type { Kysely, SelectQueryBuilder } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { proofFilterSpec } from "./proof-filter-spec.js";
import { afterCursorPredicate } from "./after-cursor-predicate.js";
import { decodeProofCursor } from "./proof-cursor.js";
import { proofOrder, type OrderTerm, type ProofSortInput } from "./proof-sort.js";
import { validateProofFilter } from "./validate-proof-filter.js";
import type { ProofColumn } from "./proof-columns.js";

export interface ProofPageInput {
  offset: number;
  limit: number;
  filter?: unknown;
  sortOrder?: readonly ProofSortInput[] | null;
  /** A proof's `cursor` in this order: the page starts after that proof (then skips `offset`). */
  after?: string | null;
}

export interface ProofQueryLimits extends FilterLimits {
  /** Most rows one `proofs` call may return; undefined for no limit. */
  maxResultRows: number | undefined;
}

export const defaultProofQueryLimits: ProofQueryLimits = { ...defaultFilterLimits, maxResultRows: undefined };

/**
 * The filtered proofs in `terms` order (see `proofOrder`), before the columns, offset and limit
 * are chosen. With a cursor, only the proofs after it in this order.
 */
function filteredProofs(db: Kysely<AopdDatabase>, filter: unknown, terms: readonly OrderTerm[], limits: FilterLimits, after?: string | null) {
  const cursor = after === null || after === undefined ? undefined : decodeProofCursor(after, terms);
  let query = db.selectFrom("aopd_proof").where((eb) => compileFilter(eb, proofFilterSpec, filter, "filter", limits));
  if (cursor) query = query.where((eb) => afterCursorPredicate(eb, terms, cursor));
  for (const term of terms) query = query.orderBy(term.column, term.direction);
  return query;
}

/** Every column of the filtered, ordered proofs; shared by the page, the count and the export. */
export function selectProofs(
  db: Kysely<AopdDatabase>,
  filter: unknown,
  sortOrder: readonly ProofSortInput[] | null | undefined,
  limits: FilterLimits,
  after?: string | null,
) {
  return filteredProofs(db, filter, proofOrder(sortOrder), limits, after).selectAll();
}

/**
 * A page's selection: only `columns` when given (see `proofColumnsFor`), else every column. The
 * rows are typed as whole rows: a column left out is undefined, and only fields that read it do
 * (none of them is asked for, or the column would be in `columns`). `terms` are
 * `proofOrder(input.sortOrder)`, given by a caller that needed them first (for the columns).
 */
export function selectProofPage(
  db: Kysely<AopdDatabase>,
  input: Pick<ProofPageInput, "filter" | "sortOrder" | "after">,
  limits: FilterLimits,
  columns: readonly ProofColumn[] | undefined,
  terms: readonly OrderTerm[] = proofOrder(input.sortOrder),
): SelectQueryBuilder<AopdDatabase, "aopd_proof", ProofRow> {
  const filtered = filteredProofs(db, input.filter, terms, limits, input.after);
  return (columns ? filtered.select(columns) : filtered.selectAll()) as SelectQueryBuilder<AopdDatabase, "aopd_proof", ProofRow>;
}

/**
 * One page of proofs in one query. With an operator-set maximum, one row more than allowed is
 * asked for, so a result that would exceed it is refused with an error instead of cut short.
 */
export async function findProofPage(
  db: Kysely<AopdDatabase>,
  input: ProofPageInput,
  limits: ProofQueryLimits,
  columns?: readonly ProofColumn[],
  terms: readonly OrderTerm[] = proofOrder(input.sortOrder),
): Promise<ProofRow[]> {
  if (!Number.isInteger(input.offset) || input.offset < 0) throw new UserInputError("offset", "must be 0 or more.");
  if (!Number.isInteger(input.limit) || input.limit < 0) throw new UserInputError("limit", "must be 0 or more.");
  if (input.limit === 0) {
    // Still validates the filter and the cursor, so bad ones are errors whatever the limit.
    validateProofFilter(input.filter, limits);
    if (input.after !== null && input.after !== undefined) decodeProofCursor(input.after, terms);
    return [];
  }
  const max = limits.maxResultRows;
  const effectiveLimit = max === undefined ? input.limit : Math.min(input.limit, max + 1);
  const rows = await withPage(selectProofPage(db, input, limits, columns, terms), input.offset, effectiveLimit).execute();
  if (max !== undefined && rows.length > max) {
    throw new LimitExceededError(
      "maxResultRows",
      max,
      `The result has more than ${max} proofs, the most one call may return; ask for at most ${max} with limit and page with offset.`,
    );
  }
  return rows;
}

function withPage<O>(query: SelectQueryBuilder<AopdDatabase, "aopd_proof", O>, offset: number, limit: number) {
  const limited = query.limit(limit);
  return offset > 0 ? limited.offset(offset) : limited;
}

export function countProofsQuery(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits) {
  return db
    .selectFrom("aopd_proof")
    .where((eb) => compileFilter(eb, proofFilterSpec, filter, "filter", limits))
    .select((eb) => eb.fn.countAll().as("count"));
}

export async function countProofs(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits): Promise<number> {
  const row = await countProofsQuery(db, filter, limits).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The latest proof matching the filter (creation time, then id, descending), or undefined. */
export async function findLatestProof(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits): Promise<ProofRow | undefined> {
  const [row] = await findProofPage(
    db,
    {
      offset: 0,
      limit: 1,
      filter,
      sortOrder: [
        { field: "CREATED_AT", direction: "DESC" },
        { field: "ID", direction: "DESC" },
      ],
    },
    { ...limits, maxResultRows: undefined },
  );
  return row;
}

export async function findProofsByIds(db: Kysely<AopdDatabase>, ids: readonly string[]): Promise<ProofRow[]> {
  const valid = ids.filter(isUuid).map((id) => id.toLowerCase());
  if (valid.length === 0) return [];
  return db.selectFrom("aopd_proof").selectAll().where("id", "in", valid).execute();
}
