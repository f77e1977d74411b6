import { createTestDatabase } from "@compliance-graph/test-kit";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdMigrator } from "../../src/database/migrate-to-latest.js";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { databaseDrivers } from "../support/test-database.js";

const walletAddress = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/**
 * Migration 0015 on a database that already holds proofs: a signature proof a wallet contract
 * verified before it (scheme null, the check's block in `block_height`) becomes `erc1271` with the
 * block in `contract_check_block_height`; a key-verified proof and a Satoshi proof's block stay as
 * they were; afterwards the database refuses a scheme and a block that disagree.
 */
describe.each(databaseDrivers)("migration 0015 (ERC-1271 on the record) on %s", (driver) => {
  let database: Database;

  beforeAll(async () => {
    const databaseUrl = driver === "postgres" ? await createTestDatabase("migration_0015") : undefined;
    database = await openDatabase(databaseUrl ? { databaseUrl, maxConnections: 2 } : { dataDir: "memory://" });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const run = async (step: () => Promise<{ error?: unknown }>) => {
    const { error } = await step();
    if (error) throw error;
  };

  it("moves a contract-verified proof's block to its own column and names the scheme, leaving other proofs alone", async () => {
    const db = database.db;
    await run(() => aopdMigrator(db).migrateTo("0014-add-chain-findings"));
    await sql`
      INSERT INTO aopd_proof (id, kind, status, customer_id, asset, address, message, signature, signature_scheme, block_height)
      VALUES ('00000000-0000-4000-8000-000000000001', 'signature', 'VERIFIED', 'CUST-M', 'DTIX9J9K872S', ${walletAddress}, 'm', '0xab', NULL, 42),
             ('00000000-0000-4000-8000-000000000002', 'signature', 'VERIFIED', 'CUST-M', 'DTIX9J9K872S', ${walletAddress}, 'm', '0xcd', 'eip191', NULL)
    `.execute(db);
    await sql`
      INSERT INTO aopd_proof (id, kind, status, customer_id, asset, address, amount, deposit_address, block_height)
      VALUES ('00000000-0000-4000-8000-000000000003', 'satoshi', 'SUBMITTED', 'CUST-M', 'DTIX9J9K872S', ${walletAddress}, 1000, ${walletAddress}, 77)
    `.execute(db);

    await run(() => aopdMigrator(db).migrateToLatest());
    const rows = await db.selectFrom("aopd_proof").select(["id", "signature_scheme", "contract_check_block_height", "block_height"]).orderBy("id").execute();
    expect(
      rows.map((row) => [
        row.signature_scheme,
        row.contract_check_block_height === null ? null : Number(row.contract_check_block_height),
        row.block_height === null ? null : Number(row.block_height),
      ]),
    ).toEqual([
      ["erc1271", 42, null],
      ["eip191", null, null],
      [null, null, 77],
    ]);

    // The scheme and the contract's block go together.
    const disagreeing = [
      sql`UPDATE aopd_proof SET contract_check_block_height = 43 WHERE id = '00000000-0000-4000-8000-000000000002'`,
      sql`UPDATE aopd_proof SET contract_check_block_height = NULL WHERE id = '00000000-0000-4000-8000-000000000001'`,
      sql`UPDATE aopd_proof SET signature_scheme = 'erc-1271' WHERE id = '00000000-0000-4000-8000-000000000001'`,
    ];
    for (const statement of disagreeing) await expect(statement.execute(db)).rejects.toThrow(/check constraint/);
  });
});
