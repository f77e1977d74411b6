import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "./support/start-test-aopd.js";

/**
 * Compiled execution (graphql-jit) must not change a byte of any answer: the same operations,
 * answered by an aopd that runs graphql-js and one that compiles, on the same seeded proofs, give
 * the same HTTP status and the same JSON text, data and errors alike. Each operation is sent four
 * times, since a document is compiled on its second run.
 */
const fragments = `
  fragment Common on AopdProof { __typename id createdAt updatedAt address customerId asset comment status dueAt cursor eventCursor }
  fragment Kinds on AopdProof {
    ... on AopdSignatureProof { format message signature xpub }
    ... on AopdSatoshiProof { amount senderAddress depositAddress txId assessment blockHeight confirmations failureReason portalUrl }
    ... on AopdMediaProof { contentType byteSize sha256 uploadedAt assessment mediaUrl }
  }`;

const operations: { name: string; query: string; variables?: Record<string, unknown> }[] = [
  {
    name: "a screen's page",
    query: `{ aopd { proofs(limit: 20, sortOrder: [{ field: CREATED_AT, direction: DESC }]) { __typename id createdAt address customerId asset status comment } } }`,
  },
  { name: "every field of every kind", query: `query { aopd { proofs(limit: 40) { ...Common ...Kinds } } } ${fragments}` },
  {
    name: "variables, filter and sort",
    query: `query($f: AopdProofFilterInput, $s: [AopdProofSortInput!], $o: Int!) { aopd { proofs(offset: $o, limit: 5, filter: $f, sortOrder: $s) { id status cursor } proofsCount(filter: $f) } }`,
    variables: { f: { is: { any: { status: ["VERIFIED", "PENDING"] } } }, s: [{ field: "ADDRESS", direction: "DESC" }], o: 2 },
  },
  {
    name: "an input object's field left to its default in a variable",
    query: `query($s: [AopdProofSortInput!]) { aopd { proofs(limit: 5, sortOrder: $s) { id customerId } } }`,
    variables: { s: [{ field: "CUSTOMER_ID" }, { field: "ID", direction: "DESC" }] },
  },
  { name: "aliases and __typename", query: `{ __typename aopd { a: proofs(limit: 2) { id } b: proofs(offset: 2, limit: 2) { id __typename } } }` },
  {
    name: "skip and include",
    query: `query($yes: Boolean!) { aopd { proofs(limit: 3) { id comment @include(if: $yes) status @skip(if: $yes) } } }`,
    variables: { yes: true },
  },
  { name: "a field error beside data", query: `{ aopd { proofsCount found: proof(id: "00000000-0000-4000-8000-000000000000") { id } } }` },
  {
    name: "a bad filter (BAD_USER_INPUT naming the field)",
    query: `{ aopd { proofs(limit: 1, filter: { is: { any: { address: { ilike: "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%" } } } }) { id } } }`,
  },
  { name: "a bad cursor", query: `{ aopd { proofs(limit: 1, after: "not-a-cursor") { id } } }` },
  { name: "a variable of the wrong type", query: `query($o: Int!) { aopd { proofs(offset: $o, limit: 1) { id } } }`, variables: { o: "many" } },
  { name: "a missing variable", query: `query($o: Int!) { aopd { proofs(offset: $o, limit: 1) { id } } }`, variables: {} },
  { name: "a negative offset", query: `{ aopd { proofs(offset: -1, limit: 1) { id } } }` },
  {
    name: "an entity reference",
    query: `query($r: [_Any!]!) { _entities(representations: $r) { ... on AopdSignatureProof { id status } ... on AopdSatoshiProof { id amount } } }`,
    variables: { r: [{ __typename: "AopdSignatureProof", id: "00000000-0000-4000-8000-000000000000" }] },
  },
  { name: "configuration", query: `{ aopd { configuration { maxResultRows maxExportRows supportedAssets { asset name checkedOnChain } } } }` },
  { name: "two operations, one named", query: `query A { aopd { proofsCount } } query B { aopd { proofs(limit: 1) { id } } }` },
];

describe("compiled execution answers as graphql-js does", () => {
  let interpreted: TestAopd;
  let compiled: TestAopd;
  beforeAll(async () => {
    [interpreted, compiled] = await Promise.all([
      startTestAopd("postgres", { seedDemoProofs: 60, compiledExecution: false }),
      startTestAopd("postgres", { seedDemoProofs: 60, compiledExecution: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([interpreted?.close(), compiled?.close()]);
  });

  const post = async (aopd: TestAopd, body: Record<string, unknown>) => {
    const response = await fetch(aopd.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  };
  // Run 1 is interpreted, runs 2 to 4 compiled, each through Apollo Server's whole pipeline.
  it.each(operations)("$name", async ({ query, variables }) => {
    const body = { query, variables: variables ?? {}, ...(query.includes("query A") ? { operationName: "B" } : {}) };
    const expected = await post(interpreted, body);
    for (let run = 0; run < 4; run += 1) expect(await post(compiled, body)).toEqual(expected);
  });
});
