import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { bundledSanctionsLists, newestBundledSanctionsList, readSanctionsList } from "@compliance-graph/sanctions-lists";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/database/open-database.js";
import { selectProofEvents } from "../../src/events/select-proof-events.js";
import { readEventLogBounds, sequenceProofEvents } from "../../src/events/sequence-proof-events.js";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

const registry = AssetRegistry.load();
const snapshot = (date: string) => bundledSanctionsLists().find((folder) => folder.endsWith(`ofac-${date}`))!;
const ether = "DTIX9J9K872S";
const bsc = "DTIHWN9T781J";
const solana = "DTI20J63Z4N3";

/** The ETH lines of a snapshot, read straight from its file: what the test expects, independent of the reader. */
const ethLines = (date: string) =>
  new Set(
    readFileSync(join(snapshot(date), "sanctioned_addresses_ETH.txt"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean),
  );
const before = ethLines("2025-03-04");
const after = ethLines("2025-03-21");
const delisted = [...before].filter((address) => !after.has(address)).sort();
const stillListed = [...before].filter((address) => after.has(address)).sort();

describe.each(databaseDrivers)("a delisting, with OFAC's real 2025-03-04 and 2025-03-21 snapshots, on %s", (driver) => {
  let database: Database;
  const proof = async (asset: string, address: string) =>
    database.db
      .insertInto("aopd_proof")
      .values({ kind: "signature", status: "VERIFIED", customer_id: "delisting", asset, address, message: "m" })
      .returningAll()
      .executeTakeFirstOrThrow();
  const screeningOf = (id: string) =>
    database.db
      .selectFrom("aopd_proof")
      .select(["screening_status", "screening_list_version", "screening_entry_address", "screening_matched_form"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    database = await openTestDatabase(driver, "delisting");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("turns the proofs of the 90 removed Ethereum addresses CLEAR, each with a SCREENING_CHANGED event and trail entry, and leaves the rest LISTED", async () => {
    expect(delisted).toHaveLength(90);
    await importSanctionsList(database.db, registry, await readSanctionsList([snapshot("2025-03-04")]));
    // Lower case on Ethereum, checksum case on BSC: an EVM address is compared case-insensitively on every EVM chain.
    const onEthereum = await proof(ether, delisted[0]!.toLowerCase());
    const onBsc = await proof(bsc, delisted[89]!);
    const kept = await proof(ether, stillListed[0]!);
    for (const row of [onEthereum, onBsc, kept])
      expect(row).toMatchObject({ screening_status: "LISTED", screening_list_version: "2025-03-04", screening_matched_form: "PROVEN_ADDRESS" });
    await sequenceProofEvents(database.db);
    const since = (await readEventLogBounds(database.db)).sequencedThrough;

    const report = await importSanctionsList(database.db, registry, await readSanctionsList([snapshot("2025-03-21")]));
    expect(report).toMatchObject({ publishedOn: "2025-03-21", previousVersion: "2025-03-04", newest: true, added: [] });
    expect(report.removed).toEqual(delisted.map((address) => ({ ofacAsset: "ETH", address })).sort((a, b) => (a.address < b.address ? -1 : 1)));
    expect(report.changes.sort((a, b) => a.proofId.localeCompare(b.proofId))).toEqual(
      [onEthereum.id, onBsc.id].sort().map((proofId) => ({ proofId, from: "LISTED", to: "CLEAR" })),
    );
    for (const row of [onEthereum, onBsc]) {
      expect(await screeningOf(row.id)).toEqual({
        screening_status: "CLEAR",
        screening_list_version: "2025-03-21",
        screening_entry_address: null,
        screening_matched_form: null,
      });
    }
    // A result that stands keeps the version that set it.
    expect(await screeningOf(kept.id)).toMatchObject({
      screening_status: "LISTED",
      screening_list_version: "2025-03-04",
      screening_entry_address: stillListed[0],
    });

    await sequenceProofEvents(database.db);
    const events = (await selectProofEvents(database.db, since).execute()).map((row) => `${row.change}:${row.id}:${row.screening_status}`);
    expect(events.sort()).toEqual([onEthereum.id, onBsc.id].map((id) => `SCREENING_CHANGED:${id}:CLEAR`).sort());
    const trail = await database.db
      .selectFrom("aopd_audit_entry")
      .select(["proof_id", "actor_subject", "details"])
      .where("action", "=", "SCREENING_CHANGED")
      .where("proof_id", "in", [onEthereum.id, onBsc.id, kept.id])
      .execute();
    expect(trail.map((entry) => [entry.proof_id, entry.actor_subject, JSON.parse(entry.details)]).sort()).toEqual(
      [onEthereum.id, onBsc.id].sort().map((id) => [id, "system:screening", { from: "LISTED", to: "CLEAR", list: "OFAC SDN", listVersion: "2025-03-21" }]),
    );
  });

  it("screens with the 2025-11-19 snapshot, the one a fresh installation starts with: SOL on Solana, BNB on the BNB Beacon Chain only", async () => {
    expect(newestBundledSanctionsList()).toBe(snapshot("2025-11-19"));
    const listedSolana = readFileSync(join(snapshot("2025-11-19"), "sanctioned_addresses_SOL.txt"), "utf8").trim();
    const listedBeacon = readFileSync(join(snapshot("2025-11-19"), "sanctioned_addresses_BNB.txt"), "utf8").trim();
    const onSolana = await proof(solana, listedSolana);
    expect(onSolana.screening_status).toBe("CLEAR");
    const report = await importSanctionsList(database.db, registry, await readSanctionsList([snapshot("2025-11-19")]));
    expect(report).toMatchObject({ publishedOn: "2025-11-19", previousVersion: "2025-03-21", newest: true });
    expect(report.added).toEqual(
      expect.arrayContaining([
        { ofacAsset: "SOL", address: listedSolana },
        { ofacAsset: "BNB", address: listedBeacon },
      ]),
    );
    expect(await screeningOf(onSolana.id)).toMatchObject({
      screening_status: "LISTED",
      screening_list_version: "2025-11-19",
      screening_entry_address: listedSolana,
    });
    const entries = await database.db
      .selectFrom("aopd_sanctions_entry")
      .innerJoin("aopd_sanctions_list", "aopd_sanctions_list.id", "aopd_sanctions_entry.list_id")
      .select(["ofac_asset", "address_family", "address_key"])
      .where("published_on", "=", "2025-11-19")
      .where("ofac_asset", "in", ["SOL", "BNB"])
      .orderBy("ofac_asset")
      .execute();
    expect(entries).toEqual([
      { ofac_asset: "BNB", address_family: "bnb-beacon", address_key: listedBeacon.toLowerCase() },
      { ofac_asset: "SOL", address_family: "solana", address_key: listedSolana },
    ]);
    // A bnb1 address is no EVM address: on Binance Smart Chain (an EVM chain) it matches nothing.
    expect((await proof(bsc, listedBeacon)).screening_status).toBe("CLEAR");
  });
});
