import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "./support/start-test-aopd.js";

/** The alias attack sent straight to aopd, past the gateway: the subgraph checks the cost again. */
describe("operation cost limit at aopd", () => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd("pglite", { seedDemoProofs: 3, config: { maxResultRows: 100_000 } });
  });
  afterAll(() => aopd?.close());

  it("refuses ten aliases of a 100,000-row page, naming the limit and the cost", async () => {
    const aliases = Array.from({ length: 10 }, (_, index) => `p${index}: proofs(limit: 100000) { id }`).join(" ");
    const { status, body } = await aopd.query(`{ aopd { ${aliases} } }`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "LIMIT_EXCEEDED", limit: "maxCost", allowed: 200_000, cost: 1_000_011 });
  });

  it("answers a query within the limit (control)", async () => {
    const { body } = await aopd.query("{ aopd { proofsCount proofs(limit: 1000) { id } } }");
    expect(body.errors).toBeUndefined();
  });
});
