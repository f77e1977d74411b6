import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditKeyring, loadAuditKeyring, useAuditKeyring } from "../../src/audit/audit-keyring.js";
import type { Database } from "../../src/database/open-database.js";
import { AuditSeedRefusedError, seedAuditLog } from "../../src/seed/seed-audit-log.js";
import { openTestDatabase } from "../support/test-database.js";

/**
 * The benchmark seeder writes chained, authenticated audit entries without the sequencer: in a
 * process holding a deployment's real audit key it would forge entries that verify. It must refuse.
 */
describe("forging audit entries through the benchmark seeder", () => {
  let database: Database;
  const development = auditKeyring();

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "auditseedforgery");
  });
  afterAll(async () => {
    useAuditKeyring(development);
    await database?.close();
  });

  it("is refused in a process holding a real AOPD_AUDIT_KEY, before anything is written", async () => {
    useAuditKeyring(loadAuditKeyring({ key: `real:${Buffer.alloc(32, 7).toString("base64")}`, previousKeys: undefined }, false));
    try {
      await expect(seedAuditLog(database, { count: 10 })).rejects.toBeInstanceOf(AuditSeedRefusedError);
    } finally {
      useAuditKeyring(development);
    }
    const head = await database.db.selectFrom("aopd_audit_head").select(["seq", "tree_size"]).executeTakeFirstOrThrow();
    expect({ seq: String(head.seq), treeSize: String(head.tree_size) }).toEqual({ seq: "0", treeSize: "0" });
    const { count } = await database.db
      .selectFrom("aopd_audit_entry")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });

  it("still writes under the development key, which anyone can read and production refuses", async () => {
    await seedAuditLog(database, { count: 10 });
    const head = await database.db.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow();
    expect(String(head.seq)).toBe("10");
  });
});
