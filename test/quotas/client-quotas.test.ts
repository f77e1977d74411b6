/**
 * Quotas per client and per subject, at the gateway's identity door. The attack: one client (or
 * one user of it), with a valid token, sends so many requests or such expensive operations that
 * everyone else waits. Each lane (POST /graphql, graphql-transport-ws, the legacy graphql-ws)
 * counts it after authentication and before planning, and refuses alike: RATE_LIMITED, and over
 * HTTP 429 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDevSigningKey } from "@compliance-graph/dev-identity-provider";
import { createTestDatabase, pollUntil } from "@compliance-graph/test-kit";
import { decodeClaims, signToken } from "../support/craft-token.js";
import { startStack, type Stack } from "../support/start-stack.js";
import { legacyClient, modernClient, subscribeLegacy, subscribeModern, wsUrl } from "../subscriptions/support/subscription-clients.js";

const roles = ["proofs:read"];
const client = (clientId: string) => ({ clientId, clientSecret: `${clientId}-secret`, roles });
// A day's window: no test here runs across its end (the window's own test sets 2 seconds).
const day = 86_400;
const cheap = "{ aopd { proofs(limit: 1) { id } } }";

describe("quotas per client and per subject", () => {
  let stack: Stack;
  let providerKey: Awaited<ReturnType<typeof generateDevSigningKey>>;

  beforeAll(async () => {
    providerKey = await generateDevSigningKey("quota-provider-key");
    stack = await startStack({
      signingKeys: [providerKey],
      realAopd: { databaseUrl: await createTestDatabase("client-quotas"), seedDemoProofs: 0 },
      extraClients: ["quota-default", "quota-partner", "quota-people", "quota-cost", "quota-window"].map(client),
      quotas: {
        defaults: { clientRequests: 3, windowSeconds: day },
        clients: {
          "quota-partner": { clientRequests: 6 },
          "quota-people": { clientRequests: 100, subjectRequests: 2 },
          "quota-cost": { clientRequests: 0, clientCost: 25 },
          "quota-window": { clientRequests: 1, windowSeconds: 2 },
        },
        replicas: 1,
        syncIntervalMs: 250,
      },
    });
  });
  afterAll(() => stack?.close());

  const tokenOf = (clientId: string) => stack.fetchToken(clientId, `${clientId}-secret`);
  /** Sends `cheap` `count` times and returns the statuses. */
  async function statuses(token: string, count: number, query = cheap) {
    const seen: number[] = [];
    for (let index = 0; index < count; index += 1) seen.push((await stack.query(query, token)).status);
    return seen;
  }
  async function refusalCount(quota: string, clientLabel: string): Promise<number> {
    const text = await (await fetch(stack.gateway.metricsUrl)).text();
    const line = text
      .split("\n")
      .find((row) => row.startsWith("gateway_quota_refusals_total{") && row.includes(`quota="${quota}"`) && row.includes(`client="${clientLabel}"`));
    return line ? Number(line.split(" ").at(-1)) : 0;
  }

  it("refuses a client over its request quota with 429, Retry-After and RATE_LIMITED, and the same on both sockets", async () => {
    const token = await tokenOf("quota-default");
    expect(await statuses(token, 3)).toEqual([200, 200, 200]);
    const refused = await stack.query(cheap, token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(day);
    const [error] = refused.body.errors as { message: string; extensions: Record<string, unknown> }[];
    expect(error).toEqual({
      message: `The client "quota-default" may use 3 requests per ${day} s window, and this window's are used. Retry after ${retryAfter} s.`,
      extensions: { code: "RATE_LIMITED", quota: "clientRequests", allowed: 3, retryAfterSeconds: retryAfter },
    });
    expect(refused.body.data).toBeUndefined();

    const modern = modernClient(wsUrl(stack.gateway.url), token);
    const legacy = legacyClient(wsUrl(stack.gateway.url), token);
    try {
      const subscription = "subscription { aopdProofs { id } }";
      const viaModern = subscribeModern(modern, subscription);
      const viaLegacy = subscribeLegacy(legacy, subscription);
      await viaModern.until((state) => state.error !== undefined);
      await viaLegacy.until((state) => state.error !== undefined);
      // The same refusal; the seconds to wait may have moved on by one.
      const sameRefusal = {
        message: expect.stringMatching(/^The client "quota-default" may use 3 requests per 86400 s window, and this window's are used\. Retry after \d+ s\.$/),
        extensions: { code: "RATE_LIMITED", quota: "clientRequests", allowed: 3, retryAfterSeconds: expect.any(Number) },
      };
      expect(viaModern.error).toEqual([sameRefusal]);
      expect(viaLegacy.error).toEqual(sameRefusal);
    } finally {
      legacy.close();
      await modern.dispose();
    }
    // Three refusals of a client not named in the settings: counted as "other".
    expect(await refusalCount("clientRequests", "other")).toBeGreaterThanOrEqual(3);
  });

  it("gives a client named in the settings its own quota, and counts its refusals by name", async () => {
    const token = await tokenOf("quota-partner");
    expect(await statuses(token, 7)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(await refusalCount("clientRequests", "quota-partner")).toBe(1);
  });

  it("counts each subject of a client on its own", async () => {
    const genuine = await tokenOf("quota-people");
    expect(await statuses(genuine, 3)).toEqual([200, 200, 429]);
    const refused = await stack.query(cheap, genuine);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED", quota: "subjectRequests", allowed: 2 });
    // Another person signed in through the same client has requests of their own.
    const other = await signToken(providerKey, { ...decodeClaims(genuine), sub: "another-person", exp: Math.floor(Date.now() / 1000) + 300 });
    expect(await statuses(other, 3)).toEqual([200, 200, 429]);
  });

  it("counts operation cost, and names the cost of an operation that no window could hold", async () => {
    const token = await tokenOf("quota-cost");
    // aopd 1 + proofs(limit: 10) 10 + id 1 = 12; 25 per window.
    const twelve = "{ aopd { proofs(limit: 10) { id } } }";
    expect(await statuses(token, 2, twelve)).toEqual([200, 200]);
    const spent = await stack.query(twelve, token);
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(spent.body.errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED", quota: "clientCost", allowed: 25 });
    // aopd 1 + proofs(limit: 30) 30 + id 1 = 32: more than a whole window allows, so waiting would not help.
    const tooLarge = await stack.query("{ aopd { proofs(limit: 30) { id } } }", token);
    expect({ status: tooLarge.status, errors: tooLarge.body.errors }).toEqual({
      status: 400,
      errors: [
        {
          message: `The operation costs 32 (the rows it can ask for, as GRAPHQL_MAX_COST counts them); the client "quota-cost" may spend at most 25 per ${day} s window, so it can never run. Ask for smaller pages or fewer fields.`,
          extensions: { code: "LIMIT_EXCEEDED", limit: "clientCost", allowed: 25, cost: 32 },
        },
      ],
    });
    // A subscription spends cost too: this window's is used.
    const modern = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const subscription = subscribeModern(modern, "subscription { aopdProofs { id } }");
      await subscription.until((state) => state.error !== undefined);
      expect((subscription.error as { extensions: unknown }[])[0]?.extensions).toMatchObject({ code: "RATE_LIMITED", quota: "clientCost" });
    } finally {
      await modern.dispose();
    }
  });

  it("admits again once the window has passed", async () => {
    const token = await tokenOf("quota-window");
    // One request per 2 s window: the first refusal may take a request or two at a window's edge.
    let refused: Awaited<ReturnType<Stack["query"]>> | undefined;
    for (let attempt = 0; attempt < 10 && !refused; attempt += 1) {
      const answer = await stack.query(cheap, token);
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refused).toBeDefined();
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    await pollUntil(
      "a request admitted in the next window",
      () => stack.query(cheap, token),
      (answer) => answer.status === 200,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
  });
});
