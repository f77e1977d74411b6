import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql, type Kysely } from "kysely";
import type { Identity } from "@compliance-graph/identity";
import { createTestDatabase, pollUntil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntries } from "../../src/audit/append-audit-entry.js";
import { genesisHash, storedAuditEntryHash } from "../../src/audit/audit-entry-hash.js";
import { extendAuditTree } from "../../src/audit/audit-tree-store.js";
import { runAuditWitness } from "../../src/audit/audit-witness.js";
import {
  consistencyRanges,
  inclusionRanges,
  leafHash,
  nodeHash,
  rangeHash,
  subtreeId,
  subtreesOf,
  verifyConsistency,
  verifyInclusion,
} from "../../src/audit/merkle-tree.js";
import { cosignatureV1Key, generateNoteKey, parseNoteSigner, verifierKeyOf } from "../../src/audit/signed-note.js";
import type { AopdDatabase } from "../../src/database/database-schema.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";

const verifyAuditCli = fileURLToPath(new URL("../../src/cli/verify-audit.ts", import.meta.url));
const witnessCli = fileURLToPath(new URL("../../src/cli/audit-witness.ts", import.meta.url));
const auditKey = `transparency:${Buffer.alloc(32, 9).toString("base64")}`;
const auditor: Identity = { subject: "5b7d-auditor", client: "compliance-console", username: "auditor", roles: ["proofs:read", "audit:read"] };
const officer: Identity = { subject: "officer-no-audit", client: "compliance-console", username: "officer", roles: ["proofs:read"] };

/** MTH(D[n]) as RFC 9162 2.1.1 defines it, over the leaves' hashes, recursively: the reference the stored tree is held to. */
function referenceRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return createHash("sha256").digest();
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)));
}

async function run(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", file, ...args], {
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** As a database superuser with the append-only triggers off, committed: what the log is there to catch. */
async function asSuperuser(db: Kysely<AopdDatabase>, work: (trx: Kysely<AopdDatabase>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await work(trx);
  });
}

describe("the RFC 9162 tree's hashes and proofs", () => {
  const leaves = Array.from({ length: 40 }, (_unused, index) => leafHash(`entry ${index}`));
  /** Every complete subtree of the first `size` leaves, as the store keeps them. */
  const storedNodes = (size: number) => {
    const nodes = new Map<string, Buffer>();
    for (let level = 0; 2 ** level <= size; level += 1) {
      for (let index = 0; (index + 1) * 2 ** level <= size; index += 1)
        nodes.set(subtreeId({ level, index }), referenceRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level)));
    }
    return nodes;
  };

  it("gives every size's root as RFC 9162 defines it, and proofs that verify, and fail when changed", () => {
    for (let size = 1; size <= leaves.length; size += 1) {
      const nodes = storedNodes(size);
      const root = rangeHash(nodes, 0, size);
      expect(root.equals(referenceRoot(leaves.slice(0, size)))).toBe(true);
      expect(subtreesOf(0, size).length).toBeLessThanOrEqual(Math.ceil(Math.log2(size + 1)));
      for (let index = 0; index < size; index += 1) {
        const path = inclusionRanges(index, size).map(([start, end]) => rangeHash(nodes, start, end));
        expect(verifyInclusion(leaves[index]!, index, size, path, root)).toBe(true);
        if (path.length > 1) expect(verifyInclusion(leaves[index]!, index, size, [...path].reverse(), root)).toBe(false);
        expect(verifyInclusion(leaves[(index + 1) % size]!, index, size, path, root)).toBe(size === 1);
      }
      for (let first = 1; first <= size; first += 1) {
        const proof = consistencyRanges(first, size).map(([start, end]) => rangeHash(nodes, start, end));
        const firstRoot = referenceRoot(leaves.slice(0, first));
        expect(verifyConsistency(first, size, proof, firstRoot, root)).toBe(true);
        if (first < size) expect(verifyConsistency(first, size, proof, leafHash("another first tree"), root)).toBe(false);
      }
    }
  });
});

describe("the audit log: tree, proofs, signed checkpoints, witnesses", () => {
  let databaseUrl: string;
  let aopd: AopdWithOfficers;
  let base: string;
  let folder: string;
  let witnessKeyPath: string;
  const env = () => ({ DATABASE_URL: databaseUrl, AOPD_AUDIT_KEY: auditKey });
  const origin = { actor: { subject: "officer-1", client: "console", username: "demo-officer-1", system: false }, requestId: null };
  const append = (count: number, label: string) =>
    appendAuditEntries(
      aopd.services.db,
      Array.from({ length: count }, (_unused, index) => ({ origin, action: "MEDIA_DOWNLOADED" as const, proofId: null, details: { label, index } })),
    );
  const checkpointOf = async (atLeast: number) =>
    pollUntil(
      `a checkpoint of at least ${atLeast} entries`,
      async () => {
        const response = await fetch(`${base}/.well-known/aopd-audit-checkpoint`);
        return response.ok ? await response.text() : "";
      },
      (note) => note !== "" && Number(note.split("\n")[1]) >= atLeast,
      { timeoutMs: 60_000, intervalMs: 100 },
    );

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "aopd-witness-"));
    witnessKeyPath = join(folder, "witness.key");
    const witnessKey = generateNoteKey("witness.example/w1", cosignatureV1Key);
    await writeFile(witnessKeyPath, witnessKey);
    databaseUrl = await createTestDatabase("auditlog");
    aopd = await startAopdWithOfficers("postgres", {
      databaseUrl,
      auditLog: {
        key: auditKey,
        previousKeys: undefined,
        checkpointKey: undefined,
        checkpointIntervalMs: 100,
        witnessKeys: verifierKeyOf(parseNoteSigner(witnessKey, "witness", cosignatureV1Key)),
      },
    });
    base = new URL(aopd.url).origin;
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("publishes signed checkpoints and the C2SP verifier key, and proves inclusion and consistency to audit:read", async () => {
    await append(21, "first");
    const note = await checkpointOf(21);
    const [originLine, size, root] = note.split("\n");
    expect(originLine).toBe("dev.compliance-graph.invalid/aopd-audit");
    const vkey = (await (await fetch(`${base}/.well-known/aopd-audit-checkpoint-key`)).text()).trim();
    const [name, hash, key] = vkey.split("+");
    const publicKey = Buffer.from(key!, "base64");
    expect(name).toBe(originLine);
    expect(publicKey[0]).toBe(0x01);
    // C2SP signed-note: key hash = the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key).
    expect(hash).toBe(createHash("sha256").update(`${name}\n`).update(publicKey).digest().subarray(0, 4).toString("hex"));
    expect(note).toMatch(new RegExp(`\\n\\n\u2014 ${name!.replace(/[./]/g, "\\$&")} [A-Za-z0-9+/=]+\\n$`));

    const proof = await aopd.queryAs(
      auditor,
      `query($seq: ID!) { aopd { auditInclusionProof(seq: $seq) { entry leafIndex treeSize auditPath rootHash checkpoint } } }`,
      { seq: "7" },
    );
    const inclusion = (
      proof.body.data!.aopd as {
        auditInclusionProof: { entry: string; leafIndex: number; treeSize: number; auditPath: string[]; rootHash: string; checkpoint: string };
      }
    ).auditInclusionProof;
    expect(inclusion).toMatchObject({ leafIndex: 6, treeSize: Number(size), rootHash: root });
    expect(inclusion.checkpoint.startsWith(note.slice(0, note.indexOf("\n\n")))).toBe(true);
    expect(JSON.parse(inclusion.entry)).toMatchObject({ seq: 7, action: "MEDIA_DOWNLOADED", details: { label: "first", index: 6 } });
    expect(
      verifyInclusion(
        leafHash(inclusion.entry),
        6,
        inclusion.treeSize,
        inclusion.auditPath.map((h) => Buffer.from(h, "base64")),
        Buffer.from(root!, "base64"),
      ),
    ).toBe(true);
    // The trail shows each chained entry's leaf text, the same as the proof's.
    const trail = await aopd.queryAs(auditor, `{ aopd { auditTrail(limit: 10) { entries { seq canonical } } } }`);
    expect((trail.body.data!.aopd as { auditTrail: { entries: { seq: string; canonical: string }[] } }).auditTrail.entries[6]!.canonical).toBe(inclusion.entry);

    await append(5, "second");
    const later = await checkpointOf(Number(size) + 5);
    const consistency = await aopd.queryAs(
      auditor,
      `query($from: Int!, $to: Int!) { aopd { auditConsistencyProof(from: $from, to: $to) { proof fromRootHash toRootHash } } }`,
      { from: Number(size), to: Number(later.split("\n")[1]) },
    );
    const {
      proof: hashes,
      fromRootHash,
      toRootHash,
    } = (consistency.body.data!.aopd as { auditConsistencyProof: { proof: string[]; fromRootHash: string; toRootHash: string } }).auditConsistencyProof;
    expect(fromRootHash).toBe(root);
    expect(
      verifyConsistency(
        Number(size),
        Number(later.split("\n")[1]),
        hashes.map((h) => Buffer.from(h, "base64")),
        Buffer.from(fromRootHash, "base64"),
        Buffer.from(toRootHash, "base64"),
      ),
    ).toBe(true);

    const refused = await aopd.queryAs(officer, `{ aopd { auditConsistencyProof(from: 1, to: 2) { proof } } }`);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const tooLarge = await aopd.queryAs(auditor, `{ aopd { auditConsistencyProof(from: 1, to: 100000) { proof } } }`);
    expect(tooLarge.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^to: must be a tree size from 1 to \d+/),
      extensions: { code: "BAD_USER_INPUT" },
    });
    const badRoute = await fetch(`${base}/.well-known/aopd-audit-consistency?from=5&to=x`);
    expect(badRoute.status).toBe(400);
  }, 180_000);

  it("a witness given the log's key out of band accepts only checkpoints that key signed, and keeps one state file to one log", async () => {
    await checkpointOf(1);
    const servedKey = (await (await fetch(`${base}/.well-known/aopd-audit-checkpoint-key`)).text()).trim();
    const pinned = await runAuditWitness({ url: base, statePath: join(folder, "witness-pinned.json"), logKey: servedKey });
    expect(pinned).toMatchObject({
      code: 0,
      lines: [`first run: following the log ${servedKey.split("+")[0]} with the key given, ${servedKey}`, expect.any(String)],
    });
    // A log (or whoever answers at its URL) signing with another key than the one published is refused, not followed.
    const otherKey = verifierKeyOf(parseNoteSigner(generateNoteKey(servedKey.split("+")[0]!), "other"));
    const impostor = await runAuditWitness({ url: base, statePath: join(folder, "witness-impostor.json"), logKey: otherKey });
    expect(impostor.code).toBe(1);
    expect(impostor.lines).toEqual([
      `note: the log serves the key ${servedKey}; this witness holds ${otherKey} and verifies with it`,
      `first run: following the log ${servedKey.split("+")[0]} with the key given, ${otherKey}`,
      expect.stringMatching(/^the checkpoint of tree size \d+ does not carry the signature of /),
    ]);
    const mixed = await runAuditWitness({ url: base, statePath: join(folder, "witness-pinned.json"), logKey: otherKey });
    expect(mixed).toMatchObject({ code: 2, lines: [expect.stringMatching(/^the state file follows the log key .* not the one given/)] });
  });

  it("a witness cosigns what extends what it saw, and catches a cut tail and a full rewrite, as verify-audit --checkpoint does", async () => {
    const stateA = join(folder, "witness-a.json");
    const first = await runAuditWitness({ url: base, statePath: stateA, keyPath: witnessKeyPath });
    expect(first).toMatchObject({
      code: 0,
      lines: [
        expect.stringMatching(/^first run: following the log/),
        expect.stringMatching(/^checkpoint of tree size \d+ verified$/),
        expect.stringMatching(/^cosigned as witness.example\/w1/),
      ],
    });
    // aopd publishes the cosignature with the checkpoint it cosigned.
    const published = await (await fetch(`${base}/.well-known/aopd-audit-checkpoint`)).text();
    expect(published).toMatch(/\n\u2014 witness\.example\/w1 [A-Za-z0-9+/=]+\n$/);
    await append(3, "third");
    await checkpointOf(JSON.parse(await readFile(stateA, "utf8")).treeSize + 3);
    const second = await runAuditWitness({ url: base, statePath: stateA });
    expect(second.code).toBe(0);
    expect(second.lines.at(-1)).toMatch(/^checkpoint of tree size \d+ verified \(extends \d+\)$/);
    const seen = (JSON.parse(await readFile(stateA, "utf8")) as { treeSize: number }).treeSize;
    expect(await run(verifyAuditCli, ["--checkpoint", stateA], env())).toMatchObject({
      code: 0,
      output: expect.stringMatching(/the trail holds the witnessed checkpoint/),
    });

    // Tail cut: the last 4 entries removed, the head moved back, the tree and the later checkpoints with them.
    const cut = seen - 4;
    await asSuperuser(aopd.services.db, async (trx) => {
      const last = await trx.selectFrom("aopd_audit_entry").select("hash").where("seq", "=", String(cut)).executeTakeFirstOrThrow();
      await sql`DELETE FROM aopd_audit_entry WHERE seq > ${cut}`.execute(trx);
      await sql`DELETE FROM aopd_audit_cosignature WHERE tree_size > ${cut}`.execute(trx);
      await sql`DELETE FROM aopd_audit_checkpoint WHERE tree_size > ${cut}`.execute(trx);
      await sql`DELETE FROM aopd_audit_tree_node WHERE (index + 1) * (2::bigint ^ level)::bigint > ${cut}`.execute(trx);
      await sql`UPDATE aopd_audit_head SET seq = ${cut}, hash = ${last.hash}, tree_size = ${cut}`.execute(trx);
    });
    const cutRun = await runAuditWitness({ url: base, statePath: stateA });
    expect(cutRun).toMatchObject({
      code: 1,
      lines: [expect.stringMatching(new RegExp(`its tree size went back from ${seen} to \\d+ \\(entries after \\d+ were cut\\)`))],
    });
    const cutCli = await run(verifyAuditCli, ["--checkpoint", stateA], env());
    expect(cutCli.code).toBe(1);
    expect(cutCli.output).toMatch(new RegExp(`the trail holds ${cut} chained entries, fewer than the ${seen} of the witnessed checkpoint`));
    // New entries after the cut do not make it whole: the tree of `seen` entries is another one now.
    await append(6, "after the cut");
    await checkpointOf(seen + 1);
    const forked = await run(witnessCli, ["--url", base, "--state", stateA], {});
    expect(forked.code).toBe(1);
    expect(forked.output).toMatch(new RegExp(`the checkpoint of tree size \\d+ is not consistent with the one of ${seen}`));

    // Full rewrite: entry 5 edited, every chain hash, the head and the whole tree recomputed with our own code.
    const stateB = join(folder, "witness-b.json");
    expect((await runAuditWitness({ url: base, statePath: stateB })).code).toBe(0);
    const witnessed = (JSON.parse(await readFile(stateB, "utf8")) as { treeSize: number }).treeSize;
    const rewrite = async (trx: Kysely<AopdDatabase>) => {
      await sql`UPDATE aopd_audit_entry SET actor_subject = 'someone-else' WHERE seq = 5`.execute(trx);
      let previous = genesisHash;
      for (const entry of await trx.selectFrom("aopd_audit_entry").selectAll().where("seq", "is not", null).orderBy("seq").execute()) {
        const hash = storedAuditEntryHash(entry, String(entry.seq), previous);
        await sql`UPDATE aopd_audit_entry SET previous_hash = ${previous}, hash = ${hash} WHERE insertion = ${entry.insertion}`.execute(trx);
        previous = hash;
      }
      await sql`DELETE FROM aopd_audit_tree_node`.execute(trx);
      await sql`UPDATE aopd_audit_head SET hash = ${previous}, tree_size = 0`.execute(trx);
      await extendAuditTree(trx, 1_000_000);
    };
    await asSuperuser(aopd.services.db, rewrite);
    // aopd itself refuses to sign a tree that does not extend its last checkpoint...
    await append(2, "after the rewrite");
    await pollUntil(
      "aopd refusing to sign the rewritten tree",
      () => aopd.services.metrics.registry.getSingleMetricAsString("aopd_audit_checkpoints_refused_total"),
      (text) => !/ 0$/.test(text.trim()),
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    // ...so the rewriter removes its checkpoints too, and aopd signs the rewritten tree afresh.
    await asSuperuser(aopd.services.db, async (trx) => {
      await sql`DELETE FROM aopd_audit_cosignature`.execute(trx);
      await sql`DELETE FROM aopd_audit_checkpoint`.execute(trx);
    });
    await append(1, "after the checkpoints went");
    await checkpointOf(witnessed + 3);
    const rewritten = await runAuditWitness({ url: base, statePath: stateB });
    expect(rewritten).toMatchObject({
      code: 1,
      lines: [expect.stringMatching(new RegExp(`the checkpoint of tree size \\d+ is not consistent with the one of ${witnessed}`))],
    });
    const rewrittenCli = await run(verifyAuditCli, ["--checkpoint", stateB], env());
    expect(rewrittenCli.code).toBe(1);
    expect(rewrittenCli.output).toMatch(new RegExp(`the trail's first ${witnessed} entries do not hash to the witnessed checkpoint's root`));
    // And the edited entry no longer authenticates.
    expect(rewrittenCli.output).toMatch(/audit entry 5 does not authenticate/);
  }, 300_000);
});
