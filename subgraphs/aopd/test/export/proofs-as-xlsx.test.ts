import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAopd, type RunningAopd } from "../../src/start-aopd.js";
import { databaseDrivers } from "../support/test-database.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { awkwardProofRows } from "./awkward-proof-rows.js";
import { documentedHeaders, everyProofField, expectExportMatches, type ProofJson } from "./expect-export-matches.js";
import { readWorkbook } from "@compliance-graph/test-kit";

const exportQuery = `query($f: AopdProofFilterInput) { aopd { proofs(filter: $f) { ${everyProofField} } proofsAsXlsx(filter: $f) } }`;

const filters: [string, unknown][] = [
  ["no filter", null],
  ["status", { is: { any: { status: ["VERIFIED", "SUBMITTED"] } } }],
  ["time range", { is: { any: { createdAt: { gte: "2025-03-01T00:00:00Z", lt: "2025-09-01T00:00:00Z" } } } }],
  ["signature proofs with an xpub", { is: { signature: { xpub: { xpub: { ilike: "xpub%" } } } } }],
  ["Satoshi proofs", { is: { satoshi: {} } }],
  ["customer pattern", { is: { any: { customerId: { ilike: "cust-00001%" } } } }],
];

describe.each(databaseDrivers)("proofsAsXlsx on %s", (driver) => {
  let aopd: TestAopd;
  let assetNames: Map<string, string>;

  beforeAll(async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 300 });
    await aopd.services.db.insertInto("aopd_proof").values(awkwardProofRows()).execute();
    const { body } = await aopd.query(`{ aopd { configuration { supportedAssets { asset name } } } }`);
    const assets = (body.data!.aopd as { configuration: { supportedAssets: { asset: string; name: string }[] } }).configuration.supportedAssets;
    assetNames = new Map(assets.map((asset) => [asset.asset, asset.name]));
  });
  afterAll(async () => {
    await aopd?.close();
  });

  async function exportWith(filter: unknown): Promise<{ proofs: ProofJson[]; file: Buffer }> {
    const { body } = await aopd.query(exportQuery, { f: filter });
    expect(body.errors).toBeUndefined();
    const result = body.data!.aopd as { proofs: ProofJson[]; proofsAsXlsx: string };
    expect(result.proofsAsXlsx).toMatch(/^[A-Za-z0-9+/]+=*$/);
    return { proofs: result.proofs, file: Buffer.from(result.proofsAsXlsx, "base64") };
  }

  it.each(filters)("matches proofs(filter) cell by cell: %s", async (_name, filter) => {
    const { proofs, file } = await exportWith(filter);
    expect(proofs.length).toBeGreaterThan(filter === null ? 300 : 0);
    expectExportMatches(readWorkbook(file), proofs, assetNames);
  });

  it("writes a valid workbook with only the header row when nothing matches", async () => {
    const { proofs, file } = await exportWith({ is: { any: { customerId: { eq: "nobody" } } } });
    expect(proofs).toEqual([]);
    const sheets = readWorkbook(file);
    expect(sheets.map((sheet) => sheet.name)).toEqual(["Proofs"]);
    expect(sheets[0]!.rows.map((row) => row.map((cell) => cell?.v))).toEqual([documentedHeaders]);
  });

  it("answers the deprecated proofAsXlsx with the workbook of its replacement", async () => {
    const id = "00000000-0000-4000-8000-000000000002";
    // Two requests: one caller runs one export at a time.
    const variables = { id: id.toUpperCase(), f: { is: { any: { id: { ilike: id.toUpperCase() } } } } };
    const one = await aopd.query(`query($id: ID!) { aopd { proofAsXlsx(id: $id) } }`, { id: variables.id });
    const { body } = await aopd.query(`query($f: AopdProofFilterInput) { aopd { proofsAsXlsx(filter: $f) proofs(filter: $f) { ${everyProofField} } } }`, {
      f: variables.f,
    });
    expect(one.body.errors).toBeUndefined();
    expect(body.errors).toBeUndefined();
    const result = { ...(one.body.data!.aopd as { proofAsXlsx: string }), ...(body.data!.aopd as { proofsAsXlsx: string; proofs: ProofJson[] }) };
    const single = readWorkbook(Buffer.from(result.proofAsXlsx, "base64"));
    expect(single).toEqual(readWorkbook(Buffer.from(result.proofsAsXlsx, "base64")));
    expect(result.proofs.map((proof) => proof.id)).toEqual([id]);
    expectExportMatches(single, result.proofs, assetNames);
  });

  it("answers NOT_FOUND for an unknown id", async () => {
    const { body } = await aopd.query(`{ aopd { proofAsXlsx(id: "00000000-0000-4000-8000-00000000dead") } }`);
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({ path: ["aopd", "proofAsXlsx"], extensions: { code: "NOT_FOUND" } });
  });

  it.each(["%", "00000000-0000-4000-8000-00000000000_", "%2"])("refuses the pattern %j in proofAsXlsx instead of exporting every match", async (pattern) => {
    const { body } = await aopd.query("query($id: ID!) { aopd { proofAsXlsx(id: $id) } }", { id: pattern });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({ path: ["aopd", "proofAsXlsx"], extensions: { code: "BAD_USER_INPUT", field: "id" } });
  });

  it("refuses a bad filter with an error that names the field", async () => {
    const { body } = await aopd.query(`{ aopd { proofsAsXlsx(filter: { is: { any: { status: [] } } }) } }`);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "filter.is.any.status" });
  });

  it("shows the export row cap in the configuration", async () => {
    const { body } = await aopd.query(`{ aopd { configuration { maxExportRows } } }`);
    expect(body.data).toEqual({ aopd: { configuration: { maxExportRows: 100_000 } } });
  });
});

describe.each(databaseDrivers)("concurrent exports on %s", (driver) => {
  let aopd: TestAopd;
  afterEach(async () => {
    await aopd?.close();
  });

  // The fields of one query run concurrently, so aliases in one request are concurrent exports.
  it("refuses a caller's second export while the first runs, naming the per-caller limit", async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 5 });
    // One after the other is allowed: the slot is free again once an export has finished.
    for (let run = 0; run < 2; run += 1) expect((await aopd.query(`{ aopd { proofsAsXlsx } }`)).body.errors).toBeUndefined();
    const { body } = await aopd.query(`{ aopd { a: proofsAsXlsx b: proofsAsXlsx } }`);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]).toMatchObject({ path: ["aopd", "b"], extensions: { code: "LIMIT_EXCEEDED", limit: "maxConcurrentExportsPerCaller", allowed: 1 } });
  });

  it("refuses exports beyond the per-process limit", async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 5, config: { maxConcurrentExportsPerCaller: 10, maxConcurrentExports: 2 } });
    const { body } = await aopd.query(`{ aopd { a: proofsAsXlsx b: proofsAsXlsx c: proofsAsXlsx } }`);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]).toMatchObject({ path: ["aopd", "c"], extensions: { code: "LIMIT_EXCEEDED", limit: "maxConcurrentExports", allowed: 2 } });
    expect(body.errors?.[0]?.message).toBe("2 exports are running; at most 2 may run at once. Retry in a moment.");
  });
});

describe.each(databaseDrivers)("the export row cap on %s", (driver) => {
  let aopd: TestAopd;

  beforeAll(async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 40, config: { maxExportRows: 10 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("refuses an export of more proofs than the cap with LIMIT_EXCEEDED, naming the cap", async () => {
    const { body } = await aopd.query(`{ aopd { proofsAsXlsx } }`);
    expect(body.data).toBeNull();
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "LIMIT_EXCEEDED", limit: "maxExportRows", allowed: 10 } });
    expect(body.errors?.[0]?.message).toBe(
      "The filter matches 40 proofs; one export may hold at most 10. Narrow the filter, for example by createdAt, and export in parts.",
    );
  });

  it("exports a filter that stays within the cap", async () => {
    const { body } = await aopd.query(`{ aopd { proofs(limit: 10) { createdAt } } }`);
    const tenth = (body.data!.aopd as { proofs: { createdAt: string }[] }).proofs[9]!.createdAt;
    const within = await aopd.query(`query($f: AopdProofFilterInput) { aopd { proofsAsXlsx(filter: $f) } }`, {
      f: { is: { any: { createdAt: { lte: tenth } } } },
    });
    expect(within.body.errors).toBeUndefined();
    expect(readWorkbook(Buffer.from((within.body.data!.aopd as { proofsAsXlsx: string }).proofsAsXlsx, "base64"))[0]!.rows).toHaveLength(11);
  });
});

// Authorization does not depend on the database driver, so one driver is enough here.
describe("the export role", () => {
  let aopd: RunningAopd;

  beforeAll(async () => {
    aopd = await startAopd({
      config: { port: 0, dataDir: "memory://" },
      authenticate: async () => ({ subject: "reader", client: "reader", roles: ["proofs:read"] }),
    });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it.each(["proofsAsXlsx", 'proofAsXlsx(id: "x")'])("refuses %s to a caller with proofs:read but not proofs:export", async (field) => {
    const response = await fetch(aopd.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ aopd { proofsCount ${field} } }` }),
    });
    const body = (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", requiredRole: "proofs:export" });
  });
});
