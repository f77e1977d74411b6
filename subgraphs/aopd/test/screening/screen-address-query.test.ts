import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

const bitcoin = "DTI4H95J0R2X";
/** On the OFAC SDN list of the bundled snapshot aopd loads at its first start. */
const listedAddress = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";
const clearAddress = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

const query = `query($asset: AopdAsset!, $address: String!) { aopd { screenAddress(asset: $asset, address: $address) {
  refused screening { status list listVersion matchedEntry { asset address } } } } }`;

/**
 * `screenAddress`: what a request would meet, asked before it is made (the console shows a match
 * before the link exists). Under the refuse policy it says the request would be refused; it
 * creates and records nothing.
 */
describe("screening an address before a request", () => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd("postgres", { config: { screening: { policy: "refuse", provider: undefined } } });
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });
  const screen = async (address: string) => (await aopd.query(query, { asset: bitcoin, address })).body;

  it("names the match of a listed address and says the refuse policy would refuse its request", async () => {
    const body = await screen(listedAddress);
    expect(body.errors).toBeUndefined();
    const check = (
      body.data!.aopd as { screenAddress: { refused: boolean; screening: { status: string; list: string; listVersion: string; matchedEntry: unknown } } }
    ).screenAddress;
    expect(check).toMatchObject({ refused: true, screening: { status: "LISTED", list: "OFAC SDN", matchedEntry: { asset: "XBT", address: listedAddress } } });
    expect(check.screening.listVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("answers CLEAR, not refused, for an address on no entry, and creates no proof", async () => {
    const body = await screen(clearAddress);
    expect((body.data!.aopd as { screenAddress: unknown }).screenAddress).toMatchObject({ refused: false, screening: { status: "CLEAR", matchedEntry: null } });
    const count = await aopd.query(`{ aopd { proofsCount } }`);
    expect((count.body.data!.aopd as { proofsCount: number }).proofsCount).toBe(0);
  });

  it("refuses an empty address with BAD_USER_INPUT naming the field", async () => {
    const body = await screen("  ");
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", field: "address" } });
  });
});
