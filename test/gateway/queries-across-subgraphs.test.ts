import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

describe("queries through the gateway across both subgraphs", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  it("answers trpd { vasps { name } } with a token from the development provider", async () => {
    const { status, body } = await stack.query("{ trpd { vasps { name } } }", token);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect((body.data?.trpd as { vasps: { name: string }[] }).vasps.map((vasp) => vasp.name)).toContain("Kraken");
  });

  it("joins aopd proofs with trpd's travel-rule transfers through entity resolution", async () => {
    const { body } = await stack.query("{ aopd { proofs(limit: 10) { id address travelRuleTransfers { counterpartyVasp address } } } }", token);
    expect(body.errors).toBeUndefined();
    const proofs = (body.data?.aopd as { proofs: { id: string; address: string; travelRuleTransfers: { address: string }[] }[] }).proofs;
    expect(proofs.map((proof) => proof.id)).toEqual(["proof-1", "proof-2"]);
    for (const proof of proofs) {
      expect(Array.isArray(proof.travelRuleTransfers)).toBe(true);
      for (const transfer of proof.travelRuleTransfers) expect(transfer.address).toBe(proof.address);
    }
  });
});
