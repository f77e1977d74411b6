import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

describe("limits and CSRF prevention at the gateway", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack({ limits: { maxDepth: 3, maxAliases: 3, maxTokens: 200 }, maxBodyBytes: 4_096 });
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  it("refuses a query nested deeper than the limit, naming the limit", async () => {
    const { status, body } = await stack.query("{ aopd { proofs { id travelRuleTransfers { counterpartyVasp } } } }", token);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", limit: "maxDepth", allowed: 3 });
  });

  it("refuses more aliases than the limit", async () => {
    const { body } = await stack.query(
      "{ a: trpd { vasps { name } } b: trpd { vasps { name } } c: trpd { vasps { name } } d: trpd { vasps { name } } }",
      token,
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", limit: "maxAliases", allowed: 3 });
  });

  it("refuses a document with more tokens than the limit", async () => {
    const { body } = await stack.query(`{ trpd { vasps { ${"name ".repeat(300)} } } }`, token);
    expect(body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
  });

  it("refuses a body larger than the limit with 413", async () => {
    const { status, body } = await stack.query(`# ${"x".repeat(5_000)}\n{ trpd { vasps { name } } }`, token);
    expect(status).toBe(413);
    expect(body.errors?.[0]?.extensions?.code).toBe("LIMIT_EXCEEDED");
  });

  it("refuses a simple cross-site request (CSRF prevention)", async () => {
    const response = await fetch(`${stack.gateway.url}?query=${encodeURIComponent("{ trpd { vasps { name } } }")}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/CSRF/);
  });

  it("passes a well-formed request id on and makes one up otherwise", async () => {
    const { headers } = await stack.query("{ trpd { vasps { name } } }", token, undefined);
    expect(headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const response = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "x-request-id": "trace-42" },
      body: JSON.stringify({ query: "{ trpd { vasps { name } } }" }),
    });
    expect(response.headers.get("x-request-id")).toBe("trace-42");
  });
});
