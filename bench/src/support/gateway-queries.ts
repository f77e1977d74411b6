/**
 * The operations of the gateway comparison (and of the Hive Gateway interoperability test): what a
 * compliance team's screen asks for. A page of 50 filtered, sorted proofs; the same page with
 * each proof's travel-rule transfers from trpd (an entity join: aopd, then trpd's `_entities`);
 * and the count for the pager.
 */
export interface GatewayQuery {
  name: string;
  query: string;
  variables: Record<string, unknown>;
  /** Only aopd is involved, so the subgraph can also be called directly with the same operation. */
  aopdOnly: boolean;
}

const filter = { is: { any: { status: ["PENDING", "SUBMITTED", "VERIFIED"] } } };
const sortOrder = [{ field: "CREATED_AT", direction: "DESC" }];
const pageFields = "__typename id createdAt address customerId asset status comment";

export const gatewayQueries: GatewayQuery[] = [
  {
    name: "page of 50",
    query: `query Page($filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) {
  aopd { proofs(offset: 0, limit: 50, filter: $filter, sortOrder: $sortOrder) { ${pageFields} } } }`,
    variables: { filter, sortOrder },
    aopdOnly: true,
  },
  {
    name: "page of 50 + trpd join",
    query: `query PageWithTransfers($filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) {
  aopd { proofs(offset: 0, limit: 50, filter: $filter, sortOrder: $sortOrder) { ${pageFields} travelRuleTransfers { counterpartyVasp direction address } } } }`,
    variables: { filter, sortOrder },
    aopdOnly: false,
  },
  {
    name: "proofsCount",
    query: `query Count($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`,
    variables: { filter },
    aopdOnly: true,
  },
];
