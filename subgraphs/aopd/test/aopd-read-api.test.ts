import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDrivers } from "./support/test-database.js";
import { startTestAopd, type TestAopd } from "./support/start-test-aopd.js";

const proofFields = `__typename id createdAt updatedAt address customerId asset comment status dueAt
  ... on AopdSignatureProof { format message signature xpub }
  ... on AopdSatoshiProof { amount senderAddress depositAddress txId assessment }`;

type ProofJson = { id: string; address: string; customerId: string; createdAt: string; xpub?: string | null; __typename: string };

describe.each(databaseDrivers)("the aopd read API on %s", (driver) => {
  let aopd: TestAopd;
  let all: ProofJson[];

  beforeAll(async () => {
    // Some queries here put several unbounded `proofs` fields into one operation, past the default cost limit.
    aopd = await startTestAopd(driver, { seedDemoProofs: 400, config: { maxCost: 10_000_000 } });
    const { body } = await aopd.query(`{ aopd { proofs { ${proofFields} } } }`);
    all = (body.data!.aopd as { proofs: ProofJson[] }).proofs;
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("returns every proof by default, oldest first, ties by id, and proofsCount agrees", async () => {
    expect(all).toHaveLength(400);
    const keys = all.map((proof) => `${proof.createdAt}|${proof.id}`);
    expect(keys).toEqual([...keys].sort());
    const { body } = await aopd.query(`{ aopd { proofsCount } }`);
    expect(body.data).toEqual({ aopd: { proofsCount: 400 } });
  });

  it("pages with offset and limit and filters by status and time", async () => {
    const { body } = await aopd.query(
      `query($f: AopdProofFilterInput) { aopd { proofs(offset: 10, limit: 5, filter: $f) { id status createdAt } proofsCount(filter: $f) } }`,
      { f: { is: { any: { status: ["VERIFIED", "FAILED"], createdAt: { gte: "2025-06-01T00:00:00Z", lt: "2026-01-01T00:00:00+00:00" } } } } },
    );
    const { proofs, proofsCount } = body.data!.aopd as { proofs: { id: string; status: string; createdAt: string }[]; proofsCount: number };
    const expected = all.filter(
      (proof) =>
        ["VERIFIED", "FAILED"].includes((proof as unknown as { status: string }).status) &&
        proof.createdAt >= "2025-06-01T00:00:00.000Z" &&
        proof.createdAt < "2026-01-01T00:00:00.000Z",
    );
    expect(proofsCount).toBe(expected.length);
    expect(proofs.map((proof) => proof.id)).toEqual(expected.slice(10, 15).map((proof) => proof.id));
  });

  it("pages by cursor: each page starts after the last proof of the one before, in any order", async () => {
    const sortOrder = [
      { field: "COMMENT", direction: "DESC" },
      { field: "CREATED_AT", direction: "ASC" },
    ];
    const { body: whole } = await aopd.query(`query($s: [AopdProofSortInput!]) { aopd { proofs(sortOrder: $s) { id } } }`, { s: sortOrder });
    const expected = (whole.data!.aopd as { proofs: { id: string }[] }).proofs.map((proof) => proof.id);
    const paged: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { body } = await aopd.query(
        `query($s: [AopdProofSortInput!], $a: String) { aopd { proofs(limit: 150, sortOrder: $s, after: $a) { id cursor } } }`,
        { s: sortOrder, a: after },
      );
      const page = (body.data!.aopd as { proofs: { id: string; cursor: string }[] }).proofs;
      paged.push(...page.map((proof) => proof.id));
      if (page.length < 150) break;
      after = page.at(-1)!.cursor;
    }
    expect(paged).toEqual(expected);
  });

  it("refuses a cursor that is not one, or was read in another order, naming after", async () => {
    const { body: first } = await aopd.query(`{ aopd { proofs(limit: 1) { cursor } } }`);
    const cursor = (first.data!.aopd as { proofs: { cursor: string }[] }).proofs[0]!.cursor;
    for (const [after, sortOrder, message] of [
      ["not a cursor!", null, "is not a cursor"],
      [Buffer.from('{"o":"created_at asc,id asc","v":[1,2]}').toString("base64url"), null, "is not a cursor"],
      [cursor, [{ field: "ADDRESS", direction: "ASC" }], "another sortOrder"],
    ] as const) {
      const { body } = await aopd.query(`query($a: String, $s: [AopdProofSortInput!]) { aopd { proofs(after: $a, sortOrder: $s) { id } } }`, {
        a: after,
        s: sortOrder,
      });
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "after" });
      expect(body.errors?.[0]?.message).toContain(message);
    }
  });

  it("keeps every kind's fields, amounts as digit strings", async () => {
    const satoshi = all.find((proof) => proof.__typename === "AopdSatoshiProof") as unknown as { amount: string; senderAddress: string; address: string };
    const signature = all.find((proof) => proof.__typename === "AopdSignatureProof") as unknown as { message: string };
    expect(satoshi.amount).toMatch(/^[0-9]+$/);
    expect(satoshi.senderAddress).toBe(satoshi.address);
    expect(signature.message).toContain("I confirm that I control");
  });

  it("answers each deprecated query with what its replacement returns", async () => {
    const target = all.find((proof) => proof.xpub) as ProofJson;
    const { body } = await aopd.query(
      `query($id: ID!, $idPattern: String!, $address: String!, $xpub: String!, $customer: ID!, $customerPattern: String!) { aopd {
        proof(id: $id) { id }
        byId: proofs(limit: 100, filter: { is: { any: { id: { ilike: $idPattern } } } }) { id }
        proofForAddress(address: $address) { id }
        byAddress: proofs(limit: 100, filter: { is: { any: { address: { ilike: $address } } } }, sortOrder: [{ field: CREATED_AT, direction: DESC }]) { id }
        proofForXpub(xpub: $xpub) { id xpub }
        byXpub: proofs(limit: 100, filter: { is: { signature: { xpub: { xpub: { ilike: $xpub } } } } }, sortOrder: [{ field: CREATED_AT, direction: DESC }]) { id }
        proofsForCustomer(customerId: $customer, offset: 1, limit: 3) { id }
        byCustomer: proofs(filter: { is: { any: { customerId: { ilike: $customerPattern } } } }, offset: 1, limit: 3) { id }
      } }`,
      {
        id: target.id.toUpperCase(),
        idPattern: target.id.toUpperCase(),
        address: target.address,
        xpub: target.xpub,
        customer: target.customerId,
        customerPattern: target.customerId,
      },
    );
    expect(body.errors).toBeUndefined();
    type Row = { id: string };
    const result = body.data!.aopd as {
      proof: Row;
      byId: Row[];
      proofForAddress: Row;
      byAddress: Row[];
      proofForXpub: Row;
      byXpub: Row[];
      proofsForCustomer: Row[];
      byCustomer: Row[];
    };
    expect(result.proof.id).toBe(target.id);
    expect([result.proof]).toEqual(result.byId);
    expect(result.proofForAddress).toEqual(result.byAddress[0]);
    expect(result.proofForXpub.id).toBe(result.byXpub[0]!.id);
    expect(result.proofsForCustomer).toEqual(result.byCustomer);
  });

  it("answers NOT_FOUND for an unknown id and null for an unknown address or xpub", async () => {
    const { body } = await aopd.query(`{ aopd { proofForAddress(address: "nowhere") { id } proofForXpub(xpub: "xpubNothing") { id } } }`);
    expect(body.data).toEqual({ aopd: { proofForAddress: null, proofForXpub: null } });
    const missing = await aopd.query(`{ aopd { proof(id: "00000000-0000-4000-8000-000000000000") { id } } }`);
    expect(missing.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("refuses bad paging and filters with BAD_USER_INPUT naming the field", async () => {
    const cases: [string, string][] = [
      [`{ aopd { proofs(offset: -1) { id } } }`, "offset"],
      [`{ aopd { proofs(limit: -5) { id } } }`, "limit"],
      [`{ aopd { proofs(filter: { is: { any: { status: [] } } }) { id } } }`, "filter.is.any.status"],
      [`{ aopd { proofsCount(filter: { is: { any: { comment: { ilike: "${"x".repeat(300)}" } } } }) } }`, "filter.is.any.comment.ilike"],
      [`{ aopd { proofsCount(filter: { is: { any: { address: { like: "ab\\\\" } } } }) } }`, "filter.is.any.address.like"],
    ];
    for (const [query, field] of cases) {
      const { body } = await aopd.query(query);
      expect(body.errors?.[0]?.extensions, query).toMatchObject({ code: "BAD_USER_INPUT", field });
    }
    const { body } = await aopd.query(`{ aopd { proofsCount(filter: { is: { any: { createdAt: { gt: "yesterday" } } } }) } }`);
    expect(body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(body.errors?.[0]?.message).toContain("RFC 3339");
  });

  it("serves configuration, translations, theme and logo", async () => {
    const { body } = await aopd.query(
      `{ aopd { configuration { portalUrl callbackBaseUrl satoshiProofLifetimeSeconds supportedAssets { asset name decimals } satoshiBaseAmounts { asset amount } } lang theme logo } }`,
    );
    const result = body.data!.aopd as {
      configuration: { supportedAssets: { asset: string }[]; satoshiProofLifetimeSeconds: number };
      lang: string;
      theme: string;
      logo: string;
    };
    expect(result.configuration.satoshiProofLifetimeSeconds).toBe(172_800);
    expect(result.configuration.supportedAssets.map((asset) => asset.asset)).toEqual(expect.arrayContaining(["DTI4H95J0R2X", "DTIX9J9K872S"]));
    expect(JSON.parse(Buffer.from(result.lang, "base64").toString("utf8")).en.title).toBeTypeOf("string");
    expect(JSON.parse(Buffer.from(result.theme, "base64").toString("utf8")).colors.primary).toMatch(/^#/);
    expect(Buffer.from(result.logo, "base64").toString("utf8")).toContain("<svg");
  });

  it("bounds query depth and aliases", async () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: proofsCount`).join(" ");
    const { body } = await aopd.query(`{ aopd { ${aliases} } }`);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "GRAPHQL_VALIDATION_FAILED", limit: "maxAliases" } });
  });
});

describe("an operator's result cap", () => {
  it("refuses a result above AOPD_MAX_RESULT_ROWS with LIMIT_EXCEEDED, and serves one within it", async () => {
    const aopd = await startTestAopd("pglite", { seedDemoProofs: 30, config: { maxResultRows: 20 } });
    try {
      const over = await aopd.query(`{ aopd { proofs { id } } }`);
      expect(over.body.errors?.[0]?.extensions).toMatchObject({ code: "LIMIT_EXCEEDED", allowed: 20 });
      const within = await aopd.query(`{ aopd { proofs(limit: 20) { id } } }`);
      expect((within.body.data!.aopd as { proofs: unknown[] }).proofs).toHaveLength(20);
    } finally {
      await aopd.close();
    }
  });
});

describe("unexpected failures", () => {
  it("reach the client as INTERNAL_SERVER_ERROR without SQL or stack", async () => {
    const aopd = await startTestAopd("postgres", { seedDemoProofs: 5 });
    try {
      await aopd.services.db.schema.dropTable("aopd_proof").cascade().execute();
      const { body } = await aopd.query(`{ aopd { proofsCount } }`);
      expect(body.errors).toEqual([expect.objectContaining({ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } })]);
      expect(JSON.stringify(body)).not.toMatch(/aopd_proof|select|stack/i);
    } finally {
      await aopd.close();
    }
  });
});
