import type { Identity } from "@compliance-graph/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";

const officer: Identity = {
  subject: "officer-hold",
  client: "compliance-console",
  username: "officer",
  roles: ["proofs:read", "proofs:write", "proofs:assess"],
};
const holdFields = "legalHold { since reason }";

/** A legal hold reads the same on every kind of proof: the API field is on each, so each must show it. */
describe("a legal hold on each kind of proof", () => {
  let aopd: AopdWithOfficers;
  const run = async (query: string, variables: Record<string, unknown>) => {
    const { body } = await aopd.queryAs(officer, query, variables);
    expect(body.errors).toBeUndefined();
    return body.data!.aopd as Record<string, Record<string, unknown>>;
  };

  beforeAll(async () => {
    aopd = await startAopdWithOfficers("pglite");
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("shows the hold of a signature proof, as of a media or Satoshi proof", async () => {
    const requested = await run(
      `mutation { aopd { requestAoppProof(input: { customerId: "C-HOLD", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { proof { id } } } }`,
      {},
    );
    const id = (requested.requestAoppProof!.proof as { id: string }).id;
    const held = await run(
      `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "court order 7/2026") { ... on AopdSignatureProof { ${holdFields} } } } }`,
      { id },
    );
    expect(held.placeLegalHold).toEqual({ legalHold: { since: expect.any(String), reason: "court order 7/2026" } });
    const read = await run(`query($id: ID!) { aopd { proof(id: $id) { ... on AopdSignatureProof { ${holdFields} } } } }`, { id });
    expect(read.proof).toEqual(held.placeLegalHold);
  });
});
