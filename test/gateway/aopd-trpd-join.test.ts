import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transfersForAddress } from "@compliance-graph/trpd";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

describe("the committed supergraph over the real aopd subgraph and trpd", () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack({ realAopd: { databaseUrl: await createTestDatabase("gateway-join"), seedDemoProofs: 12 } });
    token = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  it("joins aopd's proofs with trpd's transfers of the proven address", async () => {
    const { status, body } = await stack.query(
      "{ aopd { proofsCount proofs(limit: 12) { id address ... on AopdSignatureProof { id } travelRuleTransfers { counterpartyVasp direction address } } } trpd { vasps { name } } }",
      token,
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const aopd = body.data?.aopd as { proofsCount: number; proofs: { address: string; travelRuleTransfers: { address: string }[] }[] };
    expect(aopd.proofsCount).toBe(12);
    expect(aopd.proofs).toHaveLength(12);
    for (const proof of aopd.proofs) {
      expect(proof.travelRuleTransfers).toEqual(
        transfersForAddress(proof.address).map(({ counterpartyVasp, direction, address }) => ({ counterpartyVasp, direction, address })),
      );
    }
    expect(aopd.proofs.some((proof) => proof.travelRuleTransfers.length > 0)).toBe(true);
  });
});
