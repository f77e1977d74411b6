import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql } from "kysely";
import { createLogger } from "@compliance-graph/process-shell";
import { createTestDatabase, pollUntil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntry } from "../../src/audit/append-audit-entry.js";
import { loadAuditKeyring } from "../../src/audit/audit-keyring.js";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import { verifyAuditAuthentication } from "../../src/audit/verify-audit-authentication.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

const verifyAuditCli = fileURLToPath(new URL("../../src/cli/verify-audit.ts", import.meta.url));
const auditKey = `ops-2026:${Buffer.alloc(32, 7).toString("base64")}`;

/** `npm run verify-audit` as an operator runs it, against the test's database and key. */
async function runVerifyAudit(databaseUrl: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", verifyAuditCli], {
      env: { ...process.env, DATABASE_URL: databaseUrl, AOPD_AUDIT_KEY: auditKey, ...env },
      timeout: 120_000,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("audit entries only aopd can write", () => {
  let databaseUrl: string;
  let aopd: TestAopd;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("auditauth");
    aopd = await startTestAopd("postgres", {
      config: {
        databaseUrl,
        auditLog: { key: auditKey, previousKeys: undefined, checkpointKey: undefined, checkpointIntervalMs: 1_000, witnessKeys: undefined },
      },
      logger: createLogger("aopd", "silent"),
    });
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("sets aside an entry INSERTed without aopd's key, counts it, and verify-audit names it", async () => {
    const origin = { actor: { subject: "officer-1", client: "console", username: "demo-officer-1", system: false }, requestId: null };
    await appendAuditEntry(aopd.services.db, { origin, action: "DECIDED", proofId: null, details: { outcome: "VERIFIED" } });
    // The attack of issue 35: only INSERT, aopd running, a backdated decision in another officer's name.
    await sql`
      INSERT INTO aopd_audit_entry (occurred_at, action, actor_subject, actor_client, actor_username, actor_system, details)
      VALUES ('2025-01-01', 'DECIDED', 'forged', 'console', 'demo-officer-2', false, '{}')
    `.execute(aopd.services.db);
    // Also a genuine entry copied with another time: its nonce is taken, and a copy under a fresh nonce does not authenticate.
    const genuine = await aopd.services.db.selectFrom("aopd_audit_entry").selectAll().where("actor_subject", "=", "officer-1").executeTakeFirstOrThrow();
    await expect(
      sql`INSERT INTO aopd_audit_entry (occurred_at, action, actor_subject, actor_client, actor_username, actor_system, details, auth_key_id, auth_nonce, auth_mac)
          VALUES ('2025-01-02', 'DECIDED', 'officer-1', 'console', 'demo-officer-1', false, ${genuine.details}, ${genuine.auth_key_id}, ${genuine.auth_nonce}, ${genuine.auth_mac})`.execute(
        aopd.services.db,
      ),
    ).rejects.toThrow(/aopd_audit_entry_nonce_key/);
    await sql`INSERT INTO aopd_audit_entry (occurred_at, action, actor_subject, actor_client, actor_username, actor_system, details, auth_key_id, auth_nonce, auth_mac)
          VALUES ('2025-01-02', 'DECIDED', 'officer-1', 'console', 'demo-officer-1', false, ${genuine.details}, ${genuine.auth_key_id}, ${"ab".repeat(16)}, ${genuine.auth_mac})`.execute(
      aopd.services.db,
    );

    const setAside = await pollUntil(
      "both forged entries set aside by the running sequencer",
      () => aopd.services.db.selectFrom("aopd_audit_set_aside").selectAll().orderBy("insertion").execute(),
      (rows) => rows.length === 2,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    expect(setAside.map((row) => row.reason)).toEqual([
      expect.stringMatching(/carries no authentication/),
      expect.stringMatching(/does not authenticate under audit key "ops-2026"/),
    ]);
    const verification = await pollUntil(
      "the genuine entry chained",
      () => verifyAuditTrail(aopd.services.db),
      (result) => result.pending === 2,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    // The forged entries never took a place in the chain; the genuine one did.
    expect(verification).toMatchObject({ mismatch: null, pending: 2 });
    const chained = await aopd.services.db.selectFrom("aopd_audit_entry").select("actor_subject").where("seq", "is not", null).execute();
    expect(chained.map((row) => row.actor_subject)).not.toContain("forged");
    expect(await aopd.services.metrics.registry.getSingleMetricAsString("aopd_audit_entries_set_aside_total")).toMatch(
      /aopd_audit_entries_set_aside_total{service="aopd"} 2/,
    );

    const cli = await runVerifyAudit(databaseUrl);
    expect(cli.code).toBe(1);
    expect(cli.output).toMatch(/audit entry set aside \(insertion \d+, DECIDED by forged, dated 2025-01-01T[^)]*\): it carries no authentication/);
    expect(cli.output).toMatch(/audit entry set aside \(insertion \d+, DECIDED by officer-1, dated 2025-01-02T[^)]*\): it does not authenticate/);
  }, 180_000);

  it("names a chained entry whose content was changed behind the trigger, even with the chain's hashes recomputed", async () => {
    const keyring = loadAuditKeyring({ key: auditKey, previousKeys: undefined }, false);
    expect(keyring.current.id).toBe("ops-2026");
    const first = await aopd.services.db.selectFrom("aopd_audit_entry").select(["seq", "insertion"]).where("seq", "=", "1").executeTakeFirstOrThrow();
    const rollback = new Error("rolled back on purpose");
    await expect(
      aopd.services.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
        await sql`UPDATE aopd_audit_entry SET actor_subject = 'someone-else' WHERE insertion = ${first.insertion}`.execute(trx);
        const report = await verifyAuditAuthentication(trx, keyring);
        expect(report.failures).toEqual([{ seq: "1", problem: expect.stringMatching(/does not authenticate under audit key "ops-2026"/) }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it("production refuses to start without AOPD_AUDIT_KEY, and a weak key is refused naming the form", () => {
    expect(() => loadAuditKeyring({ key: undefined, previousKeys: undefined }, true)).toThrow(/^aopd refuses to start in production without AOPD_AUDIT_KEY/);
    expect(() => loadAuditKeyring({ key: "k1:c2hvcnQ=", previousKeys: undefined }, false)).toThrow(
      /AOPD_AUDIT_KEY must be <key id>:<base64 secret>.*at least 32 bytes/,
    );
    expect(() => loadAuditKeyring({ key: `development:${Buffer.alloc(32).toString("base64")}`, previousKeys: undefined }, true)).toThrow(
      /development key, which production refuses/,
    );
  });
});
