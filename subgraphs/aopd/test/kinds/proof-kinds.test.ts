import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decisionReasons } from "../../src/decisions/decision-reason.js";
import { officerAssessedKinds, officerDecides, proofKinds } from "../../src/kinds/proof-kinds.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

// A proof kind is one module read through the registry: these hold the registry to what the API
// and the rest of aopd say of kinds, so that a kind added (or a reason given to one) shows up in
// every place that treats kinds alike, and nowhere a list of kinds is kept by hand.
describe("the proof kind registry", () => {
  it("gives each kind its own name, proof type and schema file", () => {
    expect(proofKinds.map((kind) => [kind.name, kind.typename, kind.schemaFile.pathname.split("/").slice(-2).join("/")])).toEqual([
      ["signature", "AopdSignatureProof", "signature/signature-proof.graphql"],
      ["satoshi", "AopdSatoshiProof", "satoshi/satoshi-proof.graphql"],
      ["media", "AopdMediaProof", "media/media-proof.graphql"],
    ]);
  });

  it("says once which kinds and proofs an officer decides, and only those kinds have reason codes", () => {
    expect(proofKinds.filter((kind) => kind.decidedBy === "officer").map((kind) => kind.name)).toEqual(["satoshi", "media"]);
    // A signature proof its signature left for review (a listed address under the refusal policy) too.
    expect(officerAssessedKinds).toEqual(["signature", "satoshi", "media"]);
    for (const kind of proofKinds) expect(kind.decisionReasons.length > 0).toBe(officerAssessedKinds.includes(kind.name));
    expect(officerDecides({ kind: "signature", left_for_review: null })).toBe(false);
    expect(officerDecides({ kind: "signature", left_for_review: "screening" })).toBe(true);
    expect(officerDecides({ kind: "media", left_for_review: null })).toBe(true);
  });

  it("uses only the API's reason codes, each in the API's order, and together all of them", () => {
    const used = new Set(proofKinds.flatMap((kind) => kind.decisionReasons));
    expect(decisionReasons.filter((code) => used.has(code))).toEqual(decisionReasons);
    for (const kind of proofKinds) expect(kind.decisionReasons).toEqual(decisionReasons.filter((code) => kind.decisionReasons.includes(code)));
  });
});

describe("configuration.proofKinds", () => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd("pglite", { config: { fourEyesKinds: ["media"] }, loadBundledSanctionsList: false });
  });
  afterAll(() => aopd.close());

  it("tells a client each kind, who decides it, its reason codes and whether four eyes apply", async () => {
    const { body } = await aopd.query(
      `{ aopd { configuration { proofKinds { name proofType decidedByOfficer decidedByOfficerWhenLeftForReview decisionReasons fourEyes } } } }`,
    );
    expect(body.data).toEqual({
      aopd: {
        configuration: {
          proofKinds: [
            {
              name: "signature",
              proofType: "AopdSignatureProof",
              decidedByOfficer: false,
              decidedByOfficerWhenLeftForReview: true,
              decisionReasons: ["SANCTIONED_ADDRESS", "OTHER"],
              fourEyes: false,
            },
            {
              name: "satoshi",
              proofType: "AopdSatoshiProof",
              decidedByOfficer: true,
              decidedByOfficerWhenLeftForReview: true,
              decisionReasons: ["THIRD_PARTY_WALLET", "WRONG_AMOUNT", "WRONG_SENDER", "WRONG_RECIPIENT", "TRANSACTION_FAILED", "OTHER"],
              fourEyes: false,
            },
            {
              name: "media",
              proofType: "AopdMediaProof",
              decidedByOfficer: true,
              decidedByOfficerWhenLeftForReview: true,
              decisionReasons: ["ADDRESS_NOT_SHOWN", "EVIDENCE_UNREADABLE", "SUSPECTED_MANIPULATION", "THIRD_PARTY_WALLET", "OTHER"],
              fourEyes: true,
            },
          ],
        },
      },
    });
  });
});
