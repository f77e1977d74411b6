import { afterEach, describe, expect, it } from "vitest";
import { createXpubSearchPool, type XpubSearchPool } from "../../src/kinds/signature/xpub-search-pool.js";
import { XpubSearchBusyError } from "../../src/kinds/signature/xpub-search-busy-error.js";
import { findXpubDerivation, OwnershipInputError } from "../../src/ownership/index.js";

/** SLIP-0132 and BIP-84 vectors (mnemonic "abandon ... about"), as in find-xpub-derivation.test.ts. */
const zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
const bip84 = {
  receive0: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
  receive1: "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
  change0: "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el",
};
/** An address of another wallet: a full miss, the expensive case. */
const foreign = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

describe("the xpub search pool", () => {
  let pool: XpubSearchPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("answers in a worker thread exactly as the search on this thread does", async () => {
    pool = createXpubSearchPool();
    for (const address of [bip84.receive0, bip84.receive1, bip84.change0, foreign]) {
      const input = { xpub: zpub, address, maxIndex: 20 };
      expect(await pool.search(input)).toEqual(findXpubDerivation(input) ?? null);
    }
    expect(pool.stats().searched).toBe(4);
  });

  it("refuses unreadable input with the same client-safe error", async () => {
    pool = createXpubSearchPool();
    const failure = await pool.search({ xpub: "xpub-nonsense", address: foreign, maxIndex: 5 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OwnershipInputError);
    expect((failure as OwnershipInputError).code).toBe("INVALID_EXTENDED_KEY");
  });

  it("never searches the same xpub and address twice, answer or refusal", async () => {
    pool = createXpubSearchPool();
    const miss = { xpub: zpub, address: foreign, maxIndex: 50 };
    const answers = await Promise.all([pool.search(miss), pool.search(miss), pool.search(miss)]);
    expect(answers).toEqual([null, null, null]);
    await expect(pool.search({ xpub: "xpub-nonsense", address: foreign, maxIndex: 5 })).rejects.toBeInstanceOf(OwnershipInputError);
    await expect(pool.search({ xpub: "xpub-nonsense", address: foreign, maxIndex: 5 })).rejects.toBeInstanceOf(OwnershipInputError);
    expect(pool.stats()).toEqual({ searched: 2, remembered: 3 });
  });

  it("refuses a search at once when the queue is full, and takes searches again once it drains", async () => {
    pool = createXpubSearchPool({ workers: 1, maxQueued: 1 });
    const running = pool.search({ xpub: zpub, address: foreign, maxIndex: 300 });
    const queued = pool.search({ xpub: zpub, address: foreign, maxIndex: 301 });
    await expect(pool.search({ xpub: zpub, address: foreign, maxIndex: 302 })).rejects.toBeInstanceOf(XpubSearchBusyError);
    expect(await Promise.all([running, queued])).toEqual([null, null]);
    // The refusal was not remembered: the same search now runs.
    expect(await pool.search({ xpub: zpub, address: foreign, maxIndex: 302 })).toBeNull();
  });

  it("refuses searches once closed", async () => {
    pool = createXpubSearchPool();
    await pool.close();
    await expect(pool.search({ xpub: zpub, address: foreign, maxIndex: 5 })).rejects.toThrow(/closed/);
  });
});
