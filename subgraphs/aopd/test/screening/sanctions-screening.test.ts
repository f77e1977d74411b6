import { AssetRegistry } from "@compliance-graph/dti-assets";
import { bundledSanctionsLists, readSanctionsList } from "@compliance-graph/sanctions-lists";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/database/open-database.js";
import { selectProofEvents } from "../../src/events/select-proof-events.js";
import { readEventLogBounds, sequenceProofEvents } from "../../src/events/sequence-proof-events.js";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { screenAddress } from "../../src/screening/screen-address.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

const registry = AssetRegistry.load();
const [firstList, secondList] = bundledSanctionsLists();
const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const bsc = "DTIHWN9T781J";
const tron = "DTI993D8X1FB";
const lightning = "DTINVVJ0PSWD";
/** Added by the second list (XBT). */
const newlyListedBitcoin = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";
/** Listed in both, in mixed (checksum) case, under ETH. */
const listedEvm = "0x01e2919679362dFBC9ee1644Ba9C6da6D6245BB1";
/** Listed in both under USDT (TRON). */
const listedTron = "TTUDyVhhpCC1xJoPmWzdjLAzeoPwbSABdr";

describe.each(databaseDrivers)("sanctions screening on %s", (driver) => {
  let database: Database;
  const proof = async (asset: string, address: string | null, customer = "C1") =>
    await database.db
      .insertInto("aopd_proof")
      .values({ kind: "signature", status: "PENDING", customer_id: customer, asset, address, message: "m" })
      .returningAll()
      .executeTakeFirstOrThrow();
  const screeningOfProof = (id: string) =>
    database.db
      .selectFrom("aopd_proof")
      .select(["screening_status", "screening_list", "screening_list_version", "screening_entry_asset", "screening_entry_address", "screened_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const eventsSince = async (after: string) => {
    await sequenceProofEvents(database.db);
    return (await selectProofEvents(database.db, after).execute()).map((row) => `${row.change}:${row.id}:${row.screening_status}`);
  };

  beforeAll(async () => {
    database = await openTestDatabase(driver, "screening");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("screens the first list's and then the second list's addresses, with an event for each proof newly listed, and a repeat import changes nothing", async () => {
    const unscreened = await proof(bitcoin, newlyListedBitcoin);
    expect(unscreened.screening_status).toBe("NOT_SCREENED");
    const evmOnEthereum = await proof(ether, listedEvm.toLowerCase());
    const evmOnBsc = await proof(bsc, listedEvm.toLowerCase());
    const tronChangedCase = await proof(tron, listedTron.slice(0, -1) + listedTron.slice(-1).toUpperCase());
    const onLightning = await proof(lightning, "03" + "ab".repeat(32));
    await sequenceProofEvents(database.db);
    const before = (await readEventLogBounds(database.db)).sequencedThrough;

    const first = await importSanctionsList(database.db, registry, await readSanctionsList([firstList!]));
    expect(first).toMatchObject({ list: "OFAC SDN", publishedOn: "2024-05-29", alreadyImported: false, previousVersion: null, newest: true, removed: [] });
    expect(first.added).toHaveLength(first.addresses);
    expect(first.unmapped).toBeGreaterThan(0);
    expect(await screeningOfProof(unscreened.id)).toMatchObject({
      screening_status: "CLEAR",
      screening_list: "OFAC SDN",
      screening_list_version: "2024-05-29",
      screening_entry_address: null,
    });
    for (const evm of [evmOnEthereum, evmOnBsc]) {
      expect(await screeningOfProof(evm.id)).toMatchObject({ screening_status: "LISTED", screening_entry_asset: "ETH", screening_entry_address: listedEvm });
    }
    expect((await screeningOfProof(tronChangedCase.id)).screening_status).toBe("CLEAR");
    expect((await screeningOfProof(onLightning.id)).screening_status).toBe("NOT_SCREENED");
    // A first screening that finds nothing is no news; one that lists is.
    expect((await eventsSince(before)).sort()).toEqual([`SCREENING_CHANGED:${evmOnBsc.id}:LISTED`, `SCREENING_CHANGED:${evmOnEthereum.id}:LISTED`].sort());
    const afterFirst = (await readEventLogBounds(database.db)).sequencedThrough;

    const second = await importSanctionsList(database.db, registry, await readSanctionsList([secondList!]));
    expect(second).toMatchObject({ publishedOn: "2024-09-27", alreadyImported: false, previousVersion: "2024-05-29", newest: true, removed: [] });
    expect(second.added).toEqual([
      { ofacAsset: "ETH", address: "0x0931cA4D13BB4ba75D9B7132AB690265D749a5E7" },
      { ofacAsset: "LTC", address: "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3" },
      { ofacAsset: "TRX", address: "TTUDyVhhpCC1xJoPmWzdjLAzeoPwbSABdr" },
      { ofacAsset: "USDT", address: "TLM3zA3EWycoDX4ZX4gKze7sgfbdkntTum" },
      { ofacAsset: "XBT", address: newlyListedBitcoin },
    ]);
    expect(second.changes).toEqual([{ proofId: unscreened.id, from: "CLEAR", to: "LISTED" }]);
    expect(await screeningOfProof(unscreened.id)).toMatchObject({
      screening_status: "LISTED",
      screening_list_version: "2024-09-27",
      screening_entry_asset: "XBT",
      screening_entry_address: newlyListedBitcoin,
    });
    // No tipping off: the customer's portal shows when the proof last changed, and a re-screening does not move it.
    const relisted = await database.db.selectFrom("aopd_proof").select("updated_at").where("id", "=", unscreened.id).executeTakeFirstOrThrow();
    expect(relisted.updated_at).toEqual(unscreened.updated_at);
    // A result that stands keeps the version that set it.
    expect((await screeningOfProof(evmOnBsc.id)).screening_list_version).toBe("2024-05-29");
    expect((await screeningOfProof(tronChangedCase.id)).screening_status).toBe("CLEAR");
    expect(await eventsSince(afterFirst)).toEqual([`SCREENING_CHANGED:${unscreened.id}:LISTED`]);
    // On the audit trail too, in the import's name: the list version that moved it.
    const trail = await database.db
      .selectFrom("aopd_audit_entry")
      .select(["actor_subject", "details"])
      .where("proof_id", "=", unscreened.id)
      .where("action", "=", "SCREENING_CHANGED")
      .execute();
    expect(trail.map((entry) => [entry.actor_subject, JSON.parse(entry.details)])).toEqual([
      ["system:screening", { from: "CLEAR", to: "LISTED", list: "OFAC SDN", listVersion: "2024-09-27" }],
    ]);
    const afterSecond = (await readEventLogBounds(database.db)).sequencedThrough;

    const rowsBefore = await database.db.selectFrom("aopd_proof").selectAll().orderBy("id").execute();
    const again = await importSanctionsList(database.db, registry, await readSanctionsList([secondList!]));
    expect(again).toMatchObject({ alreadyImported: true, added: [], removed: [], changes: [] });
    expect(await database.db.selectFrom("aopd_proof").selectAll().orderBy("id").execute()).toEqual(rowsBefore);
    expect(await eventsSince(afterSecond)).toEqual([]);
    const versions = await database.db.selectFrom("aopd_sanctions_list").select("id").execute();
    expect(versions).toHaveLength(2);
  });

  it("screens a proof as its address is written: at request, and when a signature names it", async () => {
    const requested = await proof(bsc, listedEvm.toUpperCase().replace("0X", "0x"), "C2");
    expect(requested).toMatchObject({ screening_status: "LISTED", screening_list_version: "2024-09-27", screening_entry_address: listedEvm });
    const open = await proof(bitcoin, null, "C3");
    expect(open.screening_status).toBe("NOT_SCREENED");
    const named = await database.db
      .updateTable("aopd_proof")
      .set({ status: "VERIFIED", address: newlyListedBitcoin, due_at: null })
      .where("id", "=", open.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(named).toMatchObject({ screening_status: "LISTED", screening_entry_uid: null, screening_entry_address: newlyListedBitcoin });
    // Base58 is case-sensitive: one letter's case changed is another address.
    expect((await proof(bitcoin, "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuZ", "C4")).screening_status).toBe("CLEAR");
    expect(await screenAddress(database.db, tron, listedTron)).toMatchObject({ status: "LISTED", list: "OFAC SDN", listVersion: "2024-09-27" });
    expect(await screenAddress(database.db, tron, listedTron.toLowerCase())).toMatchObject({ status: "CLEAR", matchedEntry: null });
    expect((await screenAddress(database.db, lightning, "anything")).status).toBe("NOT_SCREENED");
  });

  it("imports sdn.xml and sdn_advanced.xml with the SDN entry's uid and name", async () => {
    const fixture = (name: string) => new URL(`../../../../packages/sanctions-lists/test/fixtures/${name}`, import.meta.url).pathname;
    const fromXml = await importSanctionsList(database.db, registry, await readSanctionsList([fixture("sdn.xml")]));
    expect(fromXml).toMatchObject({ publishedOn: "2024-09-27", previousVersion: "2024-09-27", newest: true, addresses: 4, unmapped: 1 });
    const listed = await database.db
      .selectFrom("aopd_proof")
      .select(["screening_entry_uid", "screening_entry_name"])
      .where("address", "=", newlyListedBitcoin)
      .execute();
    expect(listed.map((row) => [row.screening_entry_uid, row.screening_entry_name])).toEqual([
      ["90001", "Person EXAMPLE ONE"],
      ["90001", "Person EXAMPLE ONE"],
    ]);
    const advanced = await importSanctionsList(database.db, registry, await readSanctionsList([fixture("sdn_advanced.xml")]));
    expect(advanced).toMatchObject({ addresses: 4, unmapped: 1, newest: true });
    expect(advanced.added).toEqual([
      { ofacAsset: "TRX", address: "TLM3zA3EWycoDX4ZX4gKze7sgfbdkntTum" },
      { ofacAsset: "XMR", address: "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL" },
    ]);
    // The small fixture no longer names the USDT TRON address: the proofs it listed are cleared.
    expect((await screenAddress(database.db, tron, listedTron)).status).toBe("CLEAR");
  });
});
