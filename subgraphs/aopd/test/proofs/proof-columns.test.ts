import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { defaultFilterLimits } from "@compliance-graph/filter";
import type { AopdDatabase } from "../../src/database/database-schema.js";
import { proofColumnsFor } from "../../src/proofs/proof-columns.js";
import { selectProofPage } from "../../src/proofs/proof-query.js";
import { proofOrder } from "../../src/proofs/proof-sort.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

const screenFields = ["__typename", "id", "createdAt", "address", "customerId", "asset", "comment", "status"];

describe("the columns a page reads", () => {
  it("are the selected fields' columns, the id, the kind and the sort columns", () => {
    expect(proofColumnsFor(screenFields, proofOrder([{ field: "ADDRESS", direction: "DESC" }]))).toEqual([
      "id",
      "kind",
      "address",
      "created_at",
      "customer_id",
      "asset",
      "comment",
      "status",
    ]);
    expect(proofColumnsFor(["cursor"], proofOrder(undefined))).toEqual(["id", "kind", "created_at"]);
    expect(proofColumnsFor(["senderAddress", "mediaUrl"], proofOrder(undefined))).toEqual(["id", "kind", "created_at", "address"]);
  });

  it("are every column when a field is not known", () => {
    expect(proofColumnsFor(["id", "aFieldAddedLater"], proofOrder(undefined))).toBeUndefined();
  });

  it("compile to a select of those columns only", () => {
    const db = new Kysely<AopdDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
    const columns = proofColumnsFor(screenFields, proofOrder(undefined));
    const compiled = selectProofPage(db, { filter: { is: { any: { status: ["VERIFIED"] } } } }, defaultFilterLimits, columns)
      .limit(50)
      .compile();
    expect(compiled.sql).toBe(
      'select "id", "kind", "created_at", "address", "customer_id", "asset", "comment", "status" from "aopd_proof" where "status" in ($1) order by "created_at" asc, "id" asc limit $2',
    );
    expect(compiled.parameters).toEqual(["VERIFIED", 50]);
    expect(selectProofPage(db, {}, defaultFilterLimits, undefined).compile().sql).toMatch(/^select \* from "aopd_proof"/);
  });
});

describe("a page that reads some columns", () => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd("postgres", { seedDemoProofs: 60 });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  const allFields = `__typename id createdAt updatedAt address customerId asset comment status dueAt cursor
    ... on AopdSignatureProof { format message signature xpub }
    ... on AopdSatoshiProof { amount senderAddress depositAddress txId blockHeight confirmations failureReason }
    ... on AopdMediaProof { contentType byteSize sha256 uploadedAt mediaUrl }`;

  it.each([
    ["the screen's fields", "__typename id createdAt address customerId asset comment status"],
    ["the cursor alone, sorted by address", "cursor"],
    ["a Satoshi proof's fields through a fragment", "...S fragment", "fragment S on AopdSatoshiProof { amount senderAddress blockHeight }"],
    ["a media proof's link", "... on AopdMediaProof { mediaUrl }"],
  ])("answers %s exactly as the page of every field does", async (_name, selection, fragment = "") => {
    const sortOrder = [{ field: "ADDRESS", direction: "DESC" }];
    const spread = selection === "...S fragment" ? "...S" : selection;
    const full = await aopd.query(`query($s: [AopdProofSortInput!]) { aopd { proofs(limit: 60, sortOrder: $s) { ${allFields} } } }`, { s: sortOrder });
    const part = await aopd.query(`query($s: [AopdProofSortInput!]) { aopd { proofs(limit: 60, sortOrder: $s) { ${spread} } } } ${fragment}`, { s: sortOrder });
    expect(full.body.errors).toBeUndefined();
    expect(part.body.errors).toBeUndefined();
    const fullProofs = (full.body.data!.aopd as { proofs: Record<string, unknown>[] }).proofs;
    const partProofs = (part.body.data!.aopd as { proofs: Record<string, unknown>[] }).proofs;
    expect(partProofs).toHaveLength(fullProofs.length);
    partProofs.forEach((proof, index) => {
      const whole = fullProofs[index]!;
      for (const [field, value] of Object.entries(proof)) expect([field, value]).toEqual([field, whole[field]]);
    });
  });
});
