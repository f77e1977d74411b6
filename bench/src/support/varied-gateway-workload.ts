import { SeededRandom } from "@compliance-graph/aopd/internals";

/**
 * The varied workload of the gateway comparison: what a team of compliance officers does to one
 * gateway at once. Each officer (an identity of their own) opens a screen of proofs with a filter
 * of their own (statuses, a customer and a month, an asset, an address fragment, a time range),
 * sorts it, pages on by offset or by cursor, changes the page size, and the pager asks for the
 * count. No two requests of the rotation are the same operation with the same variables, and
 * consecutive requests come from different identities, so neither a gateway's in-flight query
 * sharing nor a cache can answer one request with another's work: every request costs the
 * subgraph and PostgreSQL a query of their own, as on a real morning's screens.
 *
 * Deterministic: the same seed gives the same requests in the same order on every run.
 */
export interface VariedRequest {
  /** The JSON body POSTed to `/graphql`. */
  body: string;
  /** Which identity sends it (an index into the caller's tokens; gateways without identities ignore it). */
  identity: number;
}

export interface VariedWorkload {
  name: string;
  /** Only aopd is involved, so aopd can also be called directly with the same requests. */
  aopdOnly: boolean;
  requests: VariedRequest[];
}

/** Looks up the cursor of the proof at `position` (0-based) of a filter and order, from aopd; undefined past the end. */
export type CursorAt = (filter: unknown, sortOrder: unknown, position: number) => Promise<string | undefined>;

const pageFields = "__typename id createdAt address customerId asset status comment";
const joinFields = `${pageFields} travelRuleTransfers { counterpartyVasp direction address }`;
const assets = ["DTI4H95J0R2X", "DTIX9J9K872S", "DTIRQWW6J6K0", "DTIHWN9T781J", "DTI20J63Z4N3", "DTI993D8X1FB", "DTIK1NS41N51", "DTINVVJ0PSWD"];
const statusSets = [["PENDING"], ["SUBMITTED"], ["VERIFIED"], ["FAILED", "EXPIRED"], ["PENDING", "SUBMITTED"], ["PENDING", "SUBMITTED", "VERIFIED"]];
const sortOrders = [
  [{ field: "CREATED_AT", direction: "DESC" }],
  [{ field: "CREATED_AT", direction: "ASC" }],
  [{ field: "ADDRESS", direction: "DESC" }],
  [
    { field: "CUSTOMER_ID", direction: "ASC" },
    { field: "CREATED_AT", direction: "DESC" },
  ],
  [
    { field: "STATUS", direction: "ASC" },
    { field: "CREATED_AT", direction: "DESC" },
  ],
  [
    { field: "ASSET", direction: "ASC" },
    { field: "CREATED_AT", direction: "DESC" },
  ],
];
const pageSizes = [10, 25, 50, 50, 50, 100];
const addressFragments = ["qa7", "x9", "bc1q", "0x4", "zz", "k2", "3f", "p8"];

function month(random: SeededRandom): { gte: string; lt: string } {
  // The seeded proofs span January 2025 to October 2026.
  const index = random.int(22);
  const start = new Date(Date.UTC(2025, index, 1));
  const end = new Date(Date.UTC(2025, index + 1, 1));
  return { gte: start.toISOString(), lt: end.toISOString() };
}

function filterOf(random: SeededRandom, customers: number): unknown {
  switch (random.int(6)) {
    case 0:
      return null;
    case 1:
      return { is: { any: { status: random.pick(statusSets) } } };
    case 2:
      return { is: { any: { status: random.pick(statusSets), createdAt: month(random) } } };
    case 3:
      return { is: { any: { customerId: { eq: `CUST-${String(random.int(customers) + 1).padStart(6, "0")}` } } } };
    case 4:
      return { is: { any: { asset: { eq: random.pick(assets) }, status: random.pick(statusSets) } } };
    default:
      return { is: { any: { address: { ilike: `%${random.pick(addressFragments)}%` } } } };
  }
}

/**
 * `size` distinct requests of one workload. One in five is the pager's `proofsCount`; one page in
 * five continues by cursor (from a position looked up before the load, as a client that paged
 * there holds it), the rest by offset, mostly on the first pages. `customers`: the seed's count.
 */
export async function buildVariedWorkload(options: {
  name: string;
  join: boolean;
  size: number;
  identities: number;
  customers: number;
  seed: number;
  cursorAt: CursorAt;
}): Promise<VariedWorkload> {
  const random = new SeededRandom(options.seed);
  const fields = options.join ? joinFields : pageFields;
  const page = `query VariedPage($offset: Int!, $limit: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!], $after: String) {
  aopd { proofs(offset: $offset, limit: $limit, filter: $filter, sortOrder: $sortOrder, after: $after) { ${fields} } } }`;
  const count = `query VariedCount($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`;
  const seen = new Set<string>();
  const requests: VariedRequest[] = [];
  // Cursors are looked up once per filter and order: a cursor page in the rotation is one of these.
  const cursors: { filter: unknown; sortOrder: unknown; after: string }[] = [];
  for (let i = 0; i < 24; i += 1) {
    const filter = random.next() < 0.5 ? null : { is: { any: { status: random.pick(statusSets) } } };
    const sortOrder = random.pick(sortOrders);
    const position = 50 * (1 + random.int(60));
    const after = await options.cursorAt(filter, sortOrder, position);
    if (after) cursors.push({ filter, sortOrder, after });
  }
  if (cursors.length === 0) throw new Error("The varied workload found no proof to page on by cursor: are proofs seeded?");
  for (let attempts = 0; requests.length < options.size && attempts < options.size * 20; attempts += 1) {
    const kind = random.next();
    let body: string;
    if (kind < 0.2) {
      body = JSON.stringify({ query: count, variables: { filter: filterOf(random, options.customers) } });
    } else if (kind < 0.36) {
      const cursor = random.pick(cursors);
      // A cursor and a small offset after it: the next pages of a cursor-paging client.
      body = JSON.stringify({
        query: page,
        variables: { offset: 50 * random.int(4), limit: random.pick(pageSizes), filter: cursor.filter, sortOrder: cursor.sortOrder, after: cursor.after },
      });
    } else {
      // Most screens stay on their first pages; some page deep.
      const offset = random.next() < 0.7 ? 50 * random.int(4) : 50 * random.int(50);
      body = JSON.stringify({
        query: page,
        variables: { offset, limit: random.pick(pageSizes), filter: filterOf(random, options.customers), sortOrder: random.pick(sortOrders), after: null },
      });
    }
    if (seen.has(body)) continue;
    seen.add(body);
    requests.push({ body, identity: requests.length % options.identities });
  }
  return { name: options.name, aopdOnly: !options.join, requests };
}
