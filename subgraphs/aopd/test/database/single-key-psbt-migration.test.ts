import { createTestDatabase } from "@compliance-graph/test-kit";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdMigrator } from "../../src/database/migrate-to-latest.js";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { databaseDrivers } from "../support/test-database.js";

const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const script = JSON.stringify({ template: "sortedmulti", threshold: 2, keyCount: 3, signers: ["02aa", "03bb"] });

/**
 * Migration 0027: a PSBT signed by a single key spends no script, so its proof is written without
 * `signature_script`; a `bip322-script` proof still needs its script and no other scheme has one.
 * Undone, a single key's PSBT proof is recorded as the BIP-322 simple signature it holds.
 */
describe.each(databaseDrivers)("migration 0027 (single-key PSBT proofs) on %s", (driver) => {
  let database: Database;

  beforeAll(async () => {
    const databaseUrl = driver === "postgres" ? await createTestDatabase("migration_0027") : undefined;
    database = await openDatabase(databaseUrl ? { databaseUrl, maxConnections: 2 } : { dataDir: "memory://" });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const run = async (step: () => Promise<{ error?: unknown }>) => {
    const { error } = await step();
    if (error) throw error;
  };
  const verified = (id: number, scheme: string, signatureScript: string | null) => sql`
    INSERT INTO aopd_proof (id, kind, status, customer_id, asset, address, message, signature, signature_scheme, signature_script)
    VALUES (${`00000000-0000-4000-8000-00000000000${id}`}, 'signature', 'VERIFIED', 'CUST-M', 'DTI4H95J0R2X', ${address}, 'm', 'cHNidP8', ${scheme}, ${signatureScript}::jsonb)
  `;

  it("takes a PSBT proof with or without a script, keeps the rule for the other schemes, and undoes to the BIP-322 simple scheme", async () => {
    const db = database.db;
    await run(() => aopdMigrator(db).migrateToLatest());
    await verified(1, "psbt", null).execute(db);
    await verified(2, "psbt", script).execute(db);
    await verified(3, "bip322-script", script).execute(db);
    await expect(verified(4, "bip322-script", null).execute(db)).rejects.toThrow(/aopd_proof_signature_script/);
    await expect(verified(5, "bip322-simple", script).execute(db)).rejects.toThrow(/aopd_proof_signature_script/);

    await run(() => aopdMigrator(db).migrateDown());
    const rows = await db.selectFrom("aopd_proof").select(["signature_scheme", "signature_script"]).orderBy("id").execute();
    expect(rows.map((row) => [row.signature_scheme, row.signature_script === null])).toEqual([
      ["bip322-simple", true],
      ["psbt", false],
      ["bip322-script", false],
    ]);
    await expect(verified(6, "psbt", null).execute(db)).rejects.toThrow(/aopd_proof_signature_script/);
    await run(() => aopdMigrator(db).migrateToLatest());
  });
});
