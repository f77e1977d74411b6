/**
 * Security regressions of authorization at the gateway: a caller without a role gets FORBIDDEN,
 * naming the role and the field, before any subgraph is called.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

describe("authorization by role", () => {
  let stack: Stack;
  let proofReader: string;
  beforeAll(async () => {
    stack = await startStack({ extraClients: [{ clientId: "proof-reader", clientSecret: "reader-secret", roles: ["proofs:read"] }] });
    proofReader = await stack.fetchToken("proof-reader", "reader-secret");
  });
  afterAll(() => stack?.close());

  it("lets a caller read what its roles allow", async () => {
    const { body } = await stack.query("{ aopd { proofs { id address } } }", proofReader);
    expect(body.errors).toBeUndefined();
  });

  it("refuses travel-rule data to a caller without travel-rule:read, naming the role", async () => {
    const { status, body } = await stack.query("{ trpd { vasps { name } } }", proofReader);
    expect(status).toBe(403);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      { message: 'Trpd.vasps requires the role "travel-rule:read".', extensions: { code: "FORBIDDEN", requiredRole: "travel-rule:read" } },
    ]);
  });

  it("refuses the whole operation when one field of another subgraph needs a missing role", async () => {
    const { body } = await stack.query("{ aopd { proofs { id travelRuleTransfers { id } } } }", proofReader);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", requiredRole: "travel-rule:read" });
  });

  it("refuses an export to a caller without proofs:export", async () => {
    const { body } = await stack.query("{ aopd { proofsAsXlsx } }", proofReader);
    expect(body.errors?.[0]).toMatchObject({ message: 'Aopd.proofsAsXlsx requires the role "proofs:export".', extensions: { code: "FORBIDDEN" } });
  });

  it("checks fields reached through fragments too", async () => {
    const { body } = await stack.query("query { ...Area } fragment Area on Query { trpd { ...Vasps } } fragment Vasps on Trpd { vasps { name } }", proofReader);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", requiredRole: "travel-rule:read" });
  });
});
