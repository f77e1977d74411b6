import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntries } from "../../src/audit/append-audit-entry.js";
import { auditCheckpointAt, signAuditCheckpoint } from "../../src/audit/audit-checkpoints.js";
import { auditEntryLeafHash } from "../../src/audit/audit-entry-leaf.js";
import { auditKeyring } from "../../src/audit/audit-keyring.js";
import { auditInclusionProof, auditTreeRoot, auditTreeSize } from "../../src/audit/audit-tree-store.js";
import { chainAuditEntries } from "../../src/audit/chain-audit-entries.js";
import { loadCheckpointSigner } from "../../src/audit/checkpoint-signer.js";
import { verifyInclusion } from "../../src/audit/merkle-tree.js";
import { verifyAuditLog } from "../../src/audit/verify-audit-log.js";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import type { Database } from "../../src/database/open-database.js";
import { seedAuditLog } from "../../src/seed/seed-audit-log.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

const verifyAuditCli = fileURLToPath(new URL("../../src/cli/verify-audit.ts", import.meta.url));
const signer = loadCheckpointSigner({ checkpointKey: undefined }, false).signer;
const origin = { actor: { subject: "officer-1", client: "console", username: "demo-officer-1", system: false }, requestId: null };

/** Entries through aopd's normal path: appended, then chained with their leaves by the sequencer. */
async function appendThroughAopd(database: Database, count: number, label: string): Promise<void> {
  await appendAuditEntries(
    database.db,
    Array.from({ length: count }, (_unused, index) => ({ origin, action: "MEDIA_DOWNLOADED" as const, proofId: null, details: { label, index } })),
  );
  await chainAuditEntries(database.db);
}

async function runVerifyAudit(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", verifyAuditCli, ...args], {
      env: { ...process.env, ...env },
      timeout: 300_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

// The seeded entries sit between entries written the normal way, and the batch size is no power of two, so batches end mid-subtree.
const sizes = { postgres: { seeded: 20_000, batchSize: 7_000 }, pglite: { seeded: 3_000, batchSize: 1_100 } } as const;

describe.each(databaseDrivers)("the audit log filled in bulk on %s", (driver) => {
  const { seeded, batchSize } = sizes[driver];
  const total = 5 + seeded + 7;
  let database: Database & { databaseUrl?: string };

  beforeAll(async () => {
    database = await openTestDatabase(driver, "auditseed");
    await appendThroughAopd(database, 5, "before");
    await seedAuditLog(database, { count: seeded, batchSize });
    await appendThroughAopd(database, 7, "after");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is one chain whose entries all authenticate, as verify-audit walks it", async () => {
    const chain = await verifyAuditTrail(database.db);
    expect(chain).toMatchObject({ verified: total, headSeq: String(total), mismatch: null, pending: 0 });
    const log = await verifyAuditLog(database.db, { keyring: auditKeyring() });
    expect(log.findings).toEqual([]);
    expect(log.notes).toContain(`${total} entries authenticated`);
  });

  it("is a tree whose stored nodes hash to the root the entries themselves give, and prove each leaf", async () => {
    expect(await auditTreeSize(database.db)).toBe(total);
    const checkpoint = await signAuditCheckpoint(database.db, signer, { minIntervalMs: 0, force: true });
    expect(checkpoint?.treeSize).toBe(total);
    // verify-audit --checkpoint rebuilds the root from the rows, not from the stored nodes the checkpoint was signed over.
    const log = await verifyAuditLog(database.db, {
      keyring: auditKeyring(),
      checkpoint: { note: (await auditCheckpointAt(database.db, total))!, log: signer },
    });
    expect(log.findings).toEqual([]);
    expect(log.notes).toContain("the trail holds the witnessed checkpoint");
    const root = await auditTreeRoot(database.db, total);
    for (const leafIndex of [0, 4, 5, 6, batchSize - 1, batchSize, 2 ** 11 - 1, seeded + 4, seeded + 5, total - 1]) {
      const entry = await database.db
        .selectFrom("aopd_audit_entry")
        .selectAll()
        .where("seq", "=", String(leafIndex + 1))
        .executeTakeFirstOrThrow();
      const path = await auditInclusionProof(database.db, leafIndex, total);
      expect(verifyInclusion(auditEntryLeafHash(entry), leafIndex, total, path, root), `leaf ${leafIndex}`).toBe(true);
    }
  });
});

describe("the bulk-filled audit log as the verify-audit command sees it", () => {
  let database: Database & { databaseUrl?: string };
  let checkpointFile: string;

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "auditseedcli");
    await seedAuditLog(database, { count: 20_000 });
    await appendThroughAopd(database, 3, "after");
    const checkpoint = await signAuditCheckpoint(database.db, signer, { minIntervalMs: 0, force: true });
    checkpointFile = join(await mkdtemp(join(tmpdir(), "aopd-seed-")), "checkpoint.note");
    await writeFile(checkpointFile, (await auditCheckpointAt(database.db, checkpoint!.treeSize))!);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("says whole, authenticated and holding the checkpoint, and exits 0", async () => {
    const run = await runVerifyAudit(["--checkpoint", checkpointFile], { DATABASE_URL: database.databaseUrl! });
    expect(run.output).toMatch(/audit trail whole: 20003 entries verified/);
    expect(run.output).toContain("20003 entries authenticated");
    expect(run.output).toContain("the trail holds the witnessed checkpoint");
    expect(run.code).toBe(0);
  });
});
