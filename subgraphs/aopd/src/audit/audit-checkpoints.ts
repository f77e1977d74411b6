import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { auditConsistencyProof, auditTreeRoot, auditTreeSize } from "./audit-tree-store.js";
import { verifyConsistency } from "./merkle-tree.js";
import { parseNote, signNote, type NoteSigner } from "./signed-note.js";

/** A checkpoint's text (C2SP tlog-checkpoint): the origin, the tree size, the root hash in base64, each on its line. */
export function checkpointBody(origin: string, treeSize: number, rootHash: Uint8Array): string {
  return `${origin}\n${treeSize}\n${Buffer.from(rootHash).toString("base64")}\n`;
}

/** A checkpoint read back: its origin, size and root (any lines after the third are extensions, ignored). */
export interface ParsedCheckpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
  body: string;
}

/** Parses a checkpoint note's text, refusing anything else and naming what. */
export function parseCheckpoint(noteText: string): ParsedCheckpoint {
  const { body } = parseNote(noteText);
  const [origin, size, root] = body.split("\n");
  const rootHash = Buffer.from(root ?? "", "base64");
  if (!origin || !/^(0|[1-9]\d*)$/.test(size ?? "") || rootHash.length !== 32 || rootHash.toString("base64") !== root) {
    throw new Error("not a checkpoint: its text must be <origin>, <tree size> and <base64 root hash>, each on a line of its own");
  }
  return { origin, treeSize: Number(size), rootHash, body };
}

/** Why a checkpoint was not signed: the stored tree is not an extension of the last signed one. */
export class CheckpointForkError extends Error {}

/**
 * Signs a checkpoint of the stored tree when it grew since the last one and the last one is at
 * least `minIntervalMs` old (or `force`), keeps it (every checkpoint is kept) and returns it;
 * null when none was due. Safe in several replicas: one checkpoint per size is kept.
 *
 * Threat: someone who rewrote the trail and recomputed the stored tree (a superuser) has aopd
 * sign their tree. Before signing, the new tree is checked against the last signed checkpoint
 * with a consistency proof from the stored subtrees: a tree that does not extend it is refused
 * (`CheckpointForkError`, which the sequencer logs and counts), so aopd never signs a rewrite;
 * witnesses and `verify-audit --checkpoint` catch one made behind aopd's back.
 */
export async function signAuditCheckpoint(
  db: Kysely<AopdDatabase>,
  signer: NoteSigner,
  options: { minIntervalMs: number; force?: boolean; now?: Date },
): Promise<ParsedCheckpoint | null> {
  const size = await auditTreeSize(db);
  if (size === 0) return null;
  const last = await db
    .selectFrom("aopd_audit_checkpoint")
    .select(["tree_size", "root_hash", "signed_at"])
    .orderBy("tree_size", "desc")
    .limit(1)
    .executeTakeFirst();
  const lastSize = last ? Number(last.tree_size) : 0;
  if (size <= lastSize) return null;
  if (last && !options.force && (options.now ?? new Date()).getTime() - last.signed_at.getTime() < options.minIntervalMs) return null;
  const root = await auditTreeRoot(db, size);
  if (last) {
    const proof = await auditConsistencyProof(db, lastSize, size);
    if (!verifyConsistency(lastSize, size, proof, Buffer.from(last.root_hash), root)) {
      throw new CheckpointForkError(
        `the audit tree of ${size} entries is not an extension of the signed checkpoint of ${lastSize}: entries before ${lastSize + 1} were changed, removed or reordered; no checkpoint signed`,
      );
    }
  }
  const body = checkpointBody(signer.name, size, root);
  await db
    .insertInto("aopd_audit_checkpoint")
    .values({ tree_size: String(size), root_hash: root, note: signNote(body, signer) })
    .onConflict((oc) => oc.column("tree_size").doNothing())
    .execute();
  return { origin: signer.name, treeSize: size, rootHash: root, body };
}

/** The latest signed checkpoint with every cosignature received for it, or null before the first. */
export async function latestAuditCheckpoint(db: Kysely<AopdDatabase>): Promise<{ treeSize: number; note: string } | null> {
  const last = await db.selectFrom("aopd_audit_checkpoint").select(["tree_size", "note"]).orderBy("tree_size", "desc").limit(1).executeTakeFirst();
  return last ? { treeSize: Number(last.tree_size), note: await withCosignatures(db, last.tree_size, last.note) } : null;
}

/** The checkpoint of one tree size with its cosignatures, or null when none was signed at that size. */
export async function auditCheckpointAt(db: Kysely<AopdDatabase>, treeSize: number): Promise<string | null> {
  const row = await db.selectFrom("aopd_audit_checkpoint").select(["tree_size", "note"]).where("tree_size", "=", String(treeSize)).executeTakeFirst();
  return row ? withCosignatures(db, row.tree_size, row.note) : null;
}

/** The first checkpoint covering leaf `leafIndex` (its size above the index), or null while none does. */
export async function firstAuditCheckpointCovering(db: Kysely<AopdDatabase>, leafIndex: number): Promise<{ treeSize: number; note: string } | null> {
  const row = await db
    .selectFrom("aopd_audit_checkpoint")
    .select(["tree_size", "note"])
    .where("tree_size", ">", String(leafIndex))
    .orderBy("tree_size")
    .limit(1)
    .executeTakeFirst();
  return row ? { treeSize: Number(row.tree_size), note: row.note } : null;
}

async function withCosignatures(db: Kysely<AopdDatabase>, treeSize: string, note: string): Promise<string> {
  const lines = await db.selectFrom("aopd_audit_cosignature").select("signature_line").where("tree_size", "=", treeSize).orderBy("witness").execute();
  return note + lines.map((line) => line.signature_line).join("");
}
