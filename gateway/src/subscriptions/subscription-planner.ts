import type { buildOperationContext } from "@apollo/gateway";
import { operationFromDocument, Supergraph, type Schema } from "@apollo/federation-internals";
import { QueryPlanner, type SubscriptionNode } from "@apollo/query-planner";
import type { GraphQLError } from "graphql";
import { parse, type DocumentNode, type GraphQLSchema } from "graphql";
import { BadRequestError } from "@compliance-graph/errors";
import { RequiredRoles, type Identity } from "@compliance-graph/identity";
import { prepareOperation, type OperationChecks, type OperationPayload } from "@compliance-graph/graphql-execution";
import { resumableOperation, type ResumableOperation } from "./resumable-operation.js";

type OperationContext = ReturnType<typeof buildOperationContext>;

/** A subscription validated, authorized and planned against one supergraph. */
export interface PlannedSubscription {
  planner: SubscriptionPlanner;
  /** The normalized text of the operation: with the variables, what makes two subscriptions the same. */
  key: string;
  document: DocumentNode;
  plan: SubscriptionNode;
  operationContext: OperationContext;
  variables: Record<string, unknown>;
  /** Set when the owning subgraph's stream can be continued after its last event (see `resumableOperation`). */
  resumable: ResumableOperation | undefined;
}

interface CachedPlan {
  plan: SubscriptionNode;
  operationContext: OperationContext;
  resumable: ResumableOperation | undefined;
}

/** Most plans kept per supergraph, by operation text (oldest dropped first). */
const maxCachedPlans = 1_000;

let generations = 0;

/**
 * What the gateway needs of one supergraph to serve subscriptions: the API schema (validation,
 * authorization), Apollo's query planner (which turns a subscription into a primary fetch at the
 * subgraph that owns the root field, plus the rest of the plan for the other subgraphs' fields),
 * the supergraph schema (for executing that rest) and the subgraphs' URLs. Built from the same SDL
 * `@apollo/gateway` serves, each time it changes.
 */
export class SubscriptionPlanner {
  /** Differs for each supergraph loaded: subscriptions never mix plans of two supergraphs. */
  readonly generation = ++generations;
  readonly apiSchema: Schema;
  readonly apiGraphQLSchema: GraphQLSchema;
  readonly supergraphGraphQLSchema: GraphQLSchema;
  readonly #planner: QueryPlanner;
  readonly #required: RequiredRoles;
  readonly #urls = new Map<string, string>();
  readonly #plans = new Map<string, CachedPlan>();

  constructor(supergraphSdl: string, urlOverrides: Record<string, string> = {}) {
    const supergraph = Supergraph.build(supergraphSdl);
    this.apiSchema = supergraph.apiSchema();
    this.apiGraphQLSchema = this.apiSchema.toGraphQLJSSchema();
    this.supergraphGraphQLSchema = supergraph.schema.toGraphQLJSSchema();
    this.#planner = new QueryPlanner(supergraph);
    this.#required = RequiredRoles.fromDocument(parse(supergraphSdl));
    for (const { name, url } of supergraph.subgraphsMetadata()) this.#urls.set(name, urlOverrides[name] ?? url);
  }

  subgraphNames(): string[] {
    return [...this.#urls.keys()];
  }

  /** The HTTP routing URL of a subgraph. */
  subgraphUrl(name: string): string | undefined {
    return this.#urls.get(name);
  }

  /**
   * Validates the operation with the HTTP query limits, refuses what is not a subscription and
   * what the caller's roles do not allow (`@requiresRole`, as the HTTP path checks it), and plans
   * it. Returns the errors to send otherwise.
   */
  prepare(payload: OperationPayload, identity: Identity, lane: Pick<OperationChecks, "limits" | "checks">): PlannedSubscription | GraphQLError[] {
    // The HTTP lane's checks, the same functions (prepare-operation.ts); the subgraph receives the variables as sent.
    const prepared = prepareOperation(this.apiGraphQLSchema, payload, {
      ...lane,
      onlySubscriptions: "This socket serves subscriptions; send queries and mutations to POST /graphql.",
      roles: { required: this.#required, granted: identity.roles },
    });
    if (Array.isArray(prepared)) return prepared;
    // The planner would throw on a supergraph whose subgraphs declare no Subscription type.
    if (!this.apiGraphQLSchema.getSubscriptionType()) return [new BadRequestError("The supergraph served now has no subscriptions.")];
    const { document, operation } = prepared;
    const key = `${prepared.operationName ?? ""}\n${payload.query as string}`;
    let cached = this.#plans.get(key);
    if (!cached) {
      const plan = this.#planner.buildQueryPlan(operationFromDocument(this.apiSchema, document, { operationName: prepared.operationName })).node;
      if (plan?.kind !== "Subscription") return [new BadRequestError("The subscription could not be planned.")];
      const fragments = Object.fromEntries(
        document.definitions.flatMap((definition) => (definition.kind === "FragmentDefinition" ? [[definition.name.value, definition]] : [])),
      );
      cached = {
        plan,
        operationContext: { schema: this.apiGraphQLSchema, operation, fragments },
        resumable: resumableOperation(plan.primary.operation, this.apiGraphQLSchema),
      };
      if (this.#plans.size >= maxCachedPlans) this.#plans.delete(this.#plans.keys().next().value as string);
      this.#plans.set(key, cached);
    }
    return {
      planner: this,
      key,
      document,
      plan: cached.plan,
      operationContext: cached.operationContext,
      variables: prepared.variables ?? {},
      resumable: cached.resumable,
    };
  }
}
