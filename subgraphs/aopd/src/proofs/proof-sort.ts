import type { ProofTable } from "../database/database-schema.js";

export type ProofSortField = "ID" | "CREATED_AT" | "ADDRESS" | "CUSTOMER_ID" | "ASSET" | "COMMENT" | "STATUS" | "SCREENING";
export type SortDirection = "ASC" | "DESC";

export interface ProofSortInput {
  field: ProofSortField;
  direction?: SortDirection | null;
}

export const sortColumns = {
  ID: "id",
  CREATED_AT: "created_at",
  ADDRESS: "address",
  CUSTOMER_ID: "customer_id",
  ASSET: "asset",
  COMMENT: "comment",
  STATUS: "status",
  SCREENING: "screening_status",
} as const satisfies Record<ProofSortField, keyof ProofTable & string>;

export type SortColumn = (typeof sortColumns)[ProofSortField];

export interface OrderTerm {
  column: SortColumn;
  direction: "asc" | "desc";
}

/**
 * The ORDER BY of a `proofs` call: the given criteria in order (a column named twice counts
 * once, at its first place), then the id as the final tie-breaker so that every row has one
 * place and consecutive pages never overlap or skip. Without criteria: creation time, then id.
 * The tie-breaker runs in the direction of the last criterion: every index ends in the id, and an
 * index read backwards serves `address DESC, id DESC` but not `address DESC, id ASC`, which would
 * need a sort of every tie.
 */
export function proofOrder(sortOrder: readonly ProofSortInput[] | null | undefined): OrderTerm[] {
  const criteria = sortOrder && sortOrder.length > 0 ? sortOrder : [{ field: "CREATED_AT" as const }];
  const terms: OrderTerm[] = [];
  for (const criterion of criteria) {
    const column = sortColumns[criterion.field];
    if (terms.some((term) => term.column === column)) continue;
    terms.push({ column, direction: criterion.direction === "DESC" ? "desc" : "asc" });
  }
  if (!terms.some((term) => term.column === "id")) terms.push({ column: "id", direction: terms.at(-1)?.direction ?? "asc" });
  return terms;
}
