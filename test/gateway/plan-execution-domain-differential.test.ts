import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createLogger } from "@compliance-graph/process-shell";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { gatewayQueries } from "../../bench/src/support/gateway-queries.js";
import { decisionFields, proofFields } from "../../console/src/proof-fields.js";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The gateway's own plan executor against `@apollo/gateway`'s on the project's own supergraph (the
 * real aopd on PostgreSQL, trpd): the console's list and detail queries, the gateway comparison's
 * pages, counts and joins, and requests that fail (an unknown field, variables that do not coerce,
 * a filter aopd refuses, a client without the roles), byte for byte. The committed supergraph's
 * abstract proof types, fragments and entity joins are what the benchmark's schema lacks.
 */
describe("plan execution on the project's supergraph: byte for byte @apollo/gateway's", () => {
  let stack: Stack;
  let apollos: RunningGateway;
  let token: string;
  let travelOnly: string;
  beforeAll(async () => {
    stack = await startStack({
      realAopd: { databaseUrl: await createTestDatabase("plan-execution"), seedDemoProofs: 30 },
      extraClients: [{ clientId: "travel-only", clientSecret: "travel-secret", roles: ["travel-rule:read"] }],
    });
    // The reference: the same gateway, with @apollo/gateway executing every plan.
    apollos = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: stack.subgraphUrls,
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      executePlans: false,
      logger: createLogger("gateway", "silent"),
    });
    token = await stack.fetchToken();
    travelOnly = await stack.fetchToken("travel-only", "travel-secret");
  });
  afterAll(async () => {
    await apollos?.close();
    await stack?.close();
  });

  const post = async (url: string, bearer: string, body: unknown) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  const compare = async (body: unknown, bearer = token) => {
    const expected = await post(apollos.url, bearer, body);
    await post(stack.gateway.url, bearer, body);
    const actual = await post(stack.gateway.url, bearer, body);
    expect(actual.text).toBe(expected.text);
    expect(actual.status).toBe(expected.status);
    return expected;
  };

  const operations: { name: string; body: unknown; bearer?: () => string }[] = [
    ...gatewayQueries.map((query) => ({ name: query.name, body: { query: query.query, variables: query.variables } })),
    {
      name: "the console's overview",
      body: {
        query: `query Overview($filter: AopdProofFilterInput, $sort: [AopdProofSortInput!], $offset: Int!, $limit: Int!) { aopd { proofsCount(filter: $filter) proofs(filter: $filter, sortOrder: $sort, offset: $offset, limit: $limit) { ${proofFields} } } }`,
        variables: { filter: null, sort: [{ field: "CREATED_AT", direction: "DESC" }], offset: 0, limit: 25 },
      },
    },
    {
      name: "the console's detail",
      body: {
        query: `query Detail($filter: AopdProofFilterInput) { aopd { proofs(filter: $filter, limit: 1) { ${proofFields} ${decisionFields} } } }`,
        variables: { filter: { is: { any: { status: ["PENDING"] } } } },
      },
    },
    {
      name: "aopd and trpd together",
      body: {
        query:
          "{ aopd { proofsCount proofs(limit: 12) { id address ... on AopdSignatureProof { id } travelRuleTransfers { counterpartyVasp direction address } } } trpd { vasps { name } } }",
      },
    },
    {
      name: "aliases and __typename",
      body: { query: "{ a: aopd { first: proofs(limit: 2) { __typename kind: __typename id } n: proofsCount } t: trpd { __typename vasps { name } } }" },
    },
    {
      name: "@skip and @include",
      body: {
        query: "query($all: Boolean!) { aopd { proofs(limit: 3) { id comment @include(if: $all) address @skip(if: $all) } } }",
        variables: { all: true },
      },
    },
    { name: "variables that do not coerce", body: { query: "query($limit: Int!) { aopd { proofs(limit: $limit) { id } } }", variables: { limit: "many" } } },
    { name: "a filter aopd refuses", body: { query: '{ aopd { proofs(limit: 5, filter: { is: { any: { address: { ilike: "" } } } }) { id } } }' } },
    { name: "an unknown field", body: { query: "{ aopd { proofs(limit: 1) { nothing } } }" } },
    { name: "fields the caller's roles do not allow", body: { query: "{ aopd { proofsCount } }" }, bearer: () => travelOnly },
  ];

  it.each(operations.map((operation) => [operation.name, operation] as const))("%s", async (_name, operation) => {
    await compare(operation.body, operation.bearer?.());
  });

  it("ran most of them through the gateway's own executor", async () => {
    const text = await (await fetch(stack.gateway.metricsUrl)).text();
    expect(Number(/^gateway_query_plan_executions_total\{executor="gateway"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0)).toBeGreaterThanOrEqual(7);
  });
});
