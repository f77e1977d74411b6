/**
 * The pages and counts the proof query benchmark measures, and the query-plan test checks: one
 * list, so that a plan regression of any measured query fails CI.
 */
export interface ProofQueryCase {
  name: string;
  offset: number;
  limit: number;
  filter?: unknown;
  sortOrder?: { field: string; direction: "ASC" | "DESC" }[];
  /** Start after the proof at this position of the case's order (a cursor), instead of an offset. */
  cursorAt?: number;
  /**
   * How the page may be ordered in PostgreSQL: "index" reads it in index order (no sort node);
   * "incremental" may sort within groups an index already orders (mixed directions); "any" may
   * sort (a trigram match has no useful order).
   */
  ordering: "index" | "incremental" | "any";
}

const month = { gte: "2026-03-01T00:00:00Z", lt: "2026-04-01T00:00:00Z" };

export const proofQueryCases: ProofQueryCase[] = [
  { name: "page of 50, unfiltered", offset: 0, limit: 50, ordering: "index" },
  { name: "ilike substring on address", offset: 0, limit: 50, filter: { is: { any: { address: { ilike: "%qa7%" } } } }, ordering: "any" },
  { name: "status + time range", offset: 0, limit: 50, filter: { is: { any: { status: ["PENDING", "SUBMITTED"], createdAt: month } } }, ordering: "any" },
  {
    name: "one status, newest first",
    offset: 0,
    limit: 50,
    filter: { is: { any: { status: ["VERIFIED"] } } },
    sortOrder: [{ field: "CREATED_AT", direction: "DESC" }],
    ordering: "index",
  },
  { name: "customer + time range", offset: 0, limit: 50, filter: { is: { any: { customerId: { eq: "CUST-000042" }, createdAt: month } } }, ordering: "index" },
  {
    name: "asset, newest first",
    offset: 0,
    limit: 50,
    filter: { is: { any: { asset: { eq: "DTI20J63Z4N3" } } } },
    sortOrder: [{ field: "CREATED_AT", direction: "DESC" }],
    ordering: "index",
  },
  {
    name: "sort by two fields",
    offset: 0,
    limit: 50,
    sortOrder: [
      { field: "CUSTOMER_ID", direction: "ASC" },
      { field: "CREATED_AT", direction: "DESC" },
    ],
    ordering: "incremental",
  },
  {
    name: "status filter by address desc, offset 2,500",
    offset: 2_500,
    limit: 50,
    filter: { is: { any: { status: ["VERIFIED"] } } },
    sortOrder: [{ field: "ADDRESS", direction: "DESC" }],
    ordering: "index",
  },
  { name: "offset 100,000", offset: 100_000, limit: 50, ordering: "index" },
  { name: "cursor at 100,000", offset: 0, limit: 50, cursorAt: 100_000, ordering: "index" },
];

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * The filter as the resolvers receive it: the DateTime scalar has turned strings into Dates. Only
 * ISO date-times are dates: an asset code such as "DTI20J63Z4N3" is a string.
 */
export function parsedFilter(filter: unknown): unknown {
  return JSON.parse(JSON.stringify(filter ?? null), (_key, value) => (typeof value === "string" && isoDateTime.test(value) ? new Date(value) : value));
}
