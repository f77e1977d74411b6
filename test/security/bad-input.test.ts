import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The attack: input GraphQL lets through but PostgreSQL cannot take (a DateTime that is no real
 * instant, a NUL byte in a string) sent through the gateway over HTTP, to turn each request into
 * an internal error with a logged stack. Each is refused before it reaches a subgraph: HTTP 400,
 * BAD_USER_INPUT, the field path named.
 */
describe("bad input through the gateway over HTTP", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack({ realAopd: { databaseUrl: await createTestDatabase("badinput"), seedDemoProofs: 3 } });
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  const countQuery = "query($f: AopdProofFilterInput) { aopd { proofsCount(filter: $f) } }";

  async function expectRefused(query: string, variables: Record<string, unknown> | undefined, field: string) {
    const { status, body } = await stack.query(query, token, variables);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
    expect(body.errors?.[0]?.message).toMatch(new RegExp(`^${field.replaceAll(".", "\\.")}: `));
  }

  it.each(["yesterday", "2026-05-01T12:00:00", "99999-01-01T00:00:00Z", "9999-12-31T23:59:59-14:00", "2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z"])(
    "refuses the DateTime %j in a filter variable, naming the field",
    async (value) => {
      await expectRefused(countQuery, { f: { is: { any: { createdAt: { gt: value } } } } }, "f.is.any.createdAt.gt");
    },
  );

  it("refuses an invalid DateTime written into the query, naming the argument path", async () => {
    await expectRefused(`{ aopd { proofsCount(filter: { is: { satoshi: { dueAt: { lt: "yesterday" } } } }) } }`, undefined, "filter.is.satoshi.dueAt.lt");
  });

  it("refuses a NUL byte in any string argument, variable or literal", async () => {
    await expectRefused(countQuery, { f: { is: { any: { customerId: { eq: "a\u0000b" } } } } }, "f.is.any.customerId.eq");
    await expectRefused(countQuery, { f: { is: { any: { address: { ilike: "%\u0000%" } } } } }, "f.is.any.address.ilike");
    await expectRefused(`{ aopd { proofsCount(filter: { is: { any: { comment: { eq: "a\\u0000b" } } } }) } }`, undefined, "filter.is.any.comment.eq");
    await expectRefused("query($id: ID!) { aopd { proofAsXlsx(id: $id) } }", { id: "x\u0000" }, "id");
  });

  it("still answers a valid DateTime and string (control)", async () => {
    const { status, body } = await stack.query(countQuery, token, {
      f: { is: { any: { createdAt: { gt: "2000-01-01T00:00:00+02:00" }, customerId: { ilike: "%" } } } },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { aopd: { proofsCount: 3 } } });
  });
});
