import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { legacyClient, modernClient, subscribeLegacy, subscribeModern, wsUrl } from "../subscriptions/support/subscription-clients.js";

/**
 * The attack: the checks an operation passes over HTTP (the operation's cost, input values the
 * database cannot hold) are skipped by sending it over the subscription socket instead. The
 * WebSocket lanes run the very check functions of the HTTP lane, so the same problem is the same
 * refusal on every lane: POST /graphql, graphql-transport-ws and the legacy graphql-ws.
 */
describe("one refusal on every lane", () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("same-refusal");
    // 12 rows is the cost of both documents below; 11 are allowed.
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 0 }, cost: { maxCost: 11 } });
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** What each socket answers a subscription with: its refusal's errors (the legacy client hands on the first). */
  async function overSockets(subscription: string) {
    const modern = modernClient(wsUrl(stack.gateway.url), token);
    const legacy = legacyClient(wsUrl(stack.gateway.url), token);
    try {
      const viaModern = subscribeModern(modern, subscription);
      const viaLegacy = subscribeLegacy(legacy, subscription);
      await viaModern.until((state) => state.error !== undefined);
      await viaLegacy.until((state) => state.error !== undefined);
      return { modern: viaModern.error as unknown[], legacy: viaLegacy.error };
    } finally {
      legacy.close();
      await modern.dispose();
    }
  }

  it("refuses an operation over its cost alike", async () => {
    // aopd 1 + proofs(limit: 10) 10 + id 1, and aopdProofs 1 + decisions (no limit: 10) 10 + id 1.
    const http = await stack.query(`{ aopd { proofs(limit: 10) { id } } }`, token);
    const refusal = {
      message:
        "The operation can ask for 12 rows (every list field's limit, nested lists multiplied, across all aliases); at most 11 are allowed. Ask for smaller pages or fewer aliases.",
      extensions: { code: "LIMIT_EXCEEDED", limit: "maxCost", allowed: 11, cost: 12 },
    };
    expect({ status: http.status, errors: http.body.errors }).toEqual({ status: 400, errors: [refusal] });
    const sockets = await overSockets(`subscription { aopdProofs { ... on AopdSatoshiProof { decisions { id } } } }`);
    expect(sockets).toEqual({ modern: [refusal], legacy: refusal });
  });

  it("refuses an input value the database cannot hold alike", async () => {
    const filter = `filter: { is: { any: { customerId: { eq: "c\\u0000" } } } }`;
    const http = await stack.query(`{ aopd { proofs(${filter}) { id } } }`, token);
    const refusal = {
      message: "filter.is.any.customerId.eq: must not contain a NUL character (U+0000).",
      extensions: { code: "BAD_USER_INPUT", field: "filter.is.any.customerId.eq" },
    };
    expect({ status: http.status, errors: http.body.errors }).toEqual({ status: 400, errors: [refusal] });
    const sockets = await overSockets(`subscription { aopdProofs(${filter}) { id } }`);
    expect(sockets).toEqual({ modern: [refusal], legacy: refusal });
  });
});
