import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultDatabaseTimeouts } from "../../src/database/database-timeouts.js";
import type { Database } from "../../src/database/open-database.js";
import { SeedAlreadyUsedError } from "../../src/seed/seed-already-used-error.js";
import { firstUnusedSeed, seedProofs } from "../../src/seed/seed-proofs.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

async function proofCount(database: Database): Promise<number> {
  const { count } = await database.db
    .selectFrom("aopd_proof")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe.each(databaseDrivers)("seeding demo proofs on %s", (driver) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(driver, "seed");
    await seedProofs(database, { count: 40, seed: 1 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("refuses a seed whose proofs are already there before writing anything", async () => {
    await expect(seedProofs(database, { count: 40, seed: 1 })).rejects.toBeInstanceOf(SeedAlreadyUsedError);
    expect(await proofCount(database)).toBe(40);
  });

  it("finds the first unused seed, which adds proofs without a collision", async () => {
    const seed = await firstUnusedSeed(database);
    expect(seed).toBe(2);
    await seedProofs(database, { count: 10, seed });
    expect(await proofCount(database)).toBe(50);
    expect(await firstUnusedSeed(database)).toBe(3);
  });

  it("leaves the planner statistics of the table as it now is", async () => {
    const { rows } = await sql<{ reltuples: number }>`SELECT reltuples FROM pg_class WHERE relname = 'aopd_proof'`.execute(database.db);
    expect(Number(rows[0]?.reltuples)).toBe(50);
  });
});

describe("seeding under the deployable's statement timeouts", () => {
  let database: Database;

  beforeAll(async () => {
    // Queries may take 200 ms only; the bulk load's COPY takes over a second here and its trigram index half of one, so they pass only under the long
    // timeout. The limit is not lower because the SET that lends a connection the long timeout runs under it too: at 1 ms, a busy machine let that
    // SET's own timeout fire as it committed, and the cancel landed on the next statement.
    database = await openTestDatabase("postgres", "seedtimeouts", { ...defaultDatabaseTimeouts, statementTimeoutMs: 200 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("loads past the bulk threshold under the long statement timeout, as migrations do", async () => {
    await seedProofs(database, { count: 20_000, seed: 1 });
    const { rows } = await sql<{ count: string }>`SELECT count(*) AS count FROM aopd_proof`.execute(database.longRunning);
    expect(Number(rows[0]?.count)).toBe(20_000);
    await expect(sql`SELECT pg_sleep(0.5)`.execute(database.db)).rejects.toThrow(/statement timeout/);
  }, 120_000);
});
