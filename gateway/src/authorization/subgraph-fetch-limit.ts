import type { QueryPlan } from "@apollo/query-planner";
import { LimitExceededError } from "@compliance-graph/errors";

type PlanNode = NonNullable<QueryPlan["node"]>;

/** The subgraph fetches a plan makes: every Fetch node, wherever it sits in the plan. */
export function countSubgraphFetches(node: PlanNode | undefined): number {
  if (!node) return 0;
  switch (node.kind) {
    case "Fetch":
      return 1;
    case "Sequence":
    case "Parallel":
      return node.nodes.reduce((sum, child) => sum + countSubgraphFetches(child as PlanNode), 0);
    case "Flatten":
      return countSubgraphFetches(node.node as PlanNode);
    case "Subscription":
      return 1 + countSubgraphFetches(node.rest as PlanNode | undefined);
    case "Condition":
      return Math.max(countSubgraphFetches(node.ifClause as PlanNode | undefined), countSubgraphFetches(node.elseClause as PlanNode | undefined));
    case "Defer":
      return (
        countSubgraphFetches(node.primary.node as PlanNode | undefined) +
        node.deferred.reduce((sum, deferred) => sum + countSubgraphFetches(deferred.node as PlanNode | undefined), 0)
      );
    default:
      return 0;
  }
}

/**
 * The other half of the operation cost (operation-cost.ts counts rows): the number of subgraph
 * calls one operation makes. Each call is a request to a subgraph with its own token, parse and
 * database work; an operation that fans out to hundreds of them (many aliased entity joins, say)
 * is refused once planned, before the first call, with LIMIT_EXCEEDED naming the limit.
 */
export function enforceSubgraphFetchLimit(maxSubgraphFetches: number) {
  return ({ queryPlan }: { queryPlan: QueryPlan }): void => {
    const fetches = countSubgraphFetches(queryPlan.node);
    if (fetches > maxSubgraphFetches) {
      throw new LimitExceededError(
        "maxSubgraphFetches",
        maxSubgraphFetches,
        `The operation needs ${fetches} subgraph calls; at most ${maxSubgraphFetches} are allowed. Split it into smaller operations.`,
      );
    }
  };
}
