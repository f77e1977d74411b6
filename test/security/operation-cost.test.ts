import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The attack: aliases multiply the row cap. Ten aliases of `proofs(limit: 100000)` each stay
 * within the cap but together ask for a million rows (288 MB, 4.2 GB of gateway RSS when it was
 * tried). The gateway refuses the operation before planning it, naming the limit and the cost.
 */
describe("operation cost limit at the gateway", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  it("refuses ten aliases of a 100,000-row page with LIMIT_EXCEEDED naming the limit and the cost", async () => {
    const aliases = Array.from({ length: 10 }, (_, index) => `p${index}: proofs(limit: 100000) { id }`).join(" ");
    const { status, body } = await stack.query(`{ aopd { ${aliases} } }`, token);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions).toEqual({ code: "LIMIT_EXCEEDED", limit: "maxCost", allowed: 200_000, cost: 1_000_011 });
  });

  it("takes the limit from a variable and caps it at the list row cap", async () => {
    const { body } = await stack.query(
      "query($n: Int!) { aopd { a: proofs(limit: $n) { id } b: proofs(limit: $n) { id } c: proofs(limit: $n) { id } } }",
      token,
      { n: 2_000_000_000 },
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "LIMIT_EXCEEDED", limit: "maxCost", cost: 300_004 });
  });

  it("answers one full page and small pages under many aliases (control)", async () => {
    const full = await stack.query("{ aopd { proofs { id } } }", token);
    expect(full.body.errors).toBeUndefined();
    const aliases = Array.from({ length: 10 }, (_, index) => `p${index}: proofs(limit: 100) { id }`).join(" ");
    expect((await stack.query(`{ aopd { ${aliases} } }`, token)).body.errors).toBeUndefined();
  });
});

/**
 * The other axis of cost: subgraph calls. Each is a request with its own token, parse and database
 * work, so an operation that fans out to many of them is refused once planned, before the first.
 */
describe("subgraph fetch limit at the gateway", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack({ maxSubgraphFetches: 1 });
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  it("serves an operation within the limit and refuses one that needs more subgraph calls, naming the limit", async () => {
    expect((await stack.query("{ trpd { vasps { name } } }", token)).body.errors).toBeUndefined();
    const { body } = await stack.query("{ trpd { vasps { name } } aopd { proofs(limit: 1) { id } } }", token);
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "LIMIT_EXCEEDED", limit: "maxSubgraphFetches", allowed: 1 });
    expect(body.errors?.[0]?.message).toContain("needs 2 subgraph calls");
  });
});
