import { UserInputError } from "@compliance-graph/errors";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { auditEntryLeafHash } from "./audit-entry-leaf.js";
import { consistencyRanges, inclusionRanges, nodeHash, rangeHash, subtreeId, subtreesOf, type SubtreeKey } from "./merkle-tree.js";

/**
 * Leaves added to the tree per call: bounds the entries read and the nodes written in one
 * transaction (about two per leaf).
 * @default 1_000
 */
export const treeBatchSize = 1_000;

/**
 * Makes the chained entries after the stored tree's size leaves of the audit log's Merkle tree
 * (migration 0020), at most `limit` of them, and stores every subtree they complete; returns how
 * many it added. Runs in the sequencer's transaction, under the head's lock (`chainAuditEntries`),
 * so the tree and the chain grow together and one writer writes each node. The leaves before hold
 * their subtrees already: only the ones on the right edge (at most one per level) are read.
 */
export async function extendAuditTree(trx: Kysely<AopdDatabase>, limit = treeBatchSize): Promise<number> {
  const head = await trx.selectFrom("aopd_audit_head").select(["seq", "tree_size"]).executeTakeFirstOrThrow();
  const size = Number(head.tree_size);
  const target = Math.min(Number(head.seq), size + limit);
  if (target <= size) return 0;
  const entries = await trx
    .selectFrom("aopd_audit_entry")
    .selectAll()
    .where("seq", ">", String(size))
    .where("seq", "<=", String(target))
    .orderBy("seq")
    .execute();
  if (entries.length !== target - size) throw new Error(`the audit trail lacks entries between ${size + 1} and ${target}: the tree is not extended past a gap`);
  const nodes = await readSubtrees(trx, subtreesOf(0, size));
  const written: { level: number; index: number; hash: Buffer }[] = [];
  const keep = (level: number, index: number, hash: Buffer) => {
    nodes.set(subtreeId({ level, index }), hash);
    written.push({ level, index, hash });
  };
  entries.forEach((entry, offset) => {
    let index = size + offset;
    let level = 0;
    let hash = auditEntryLeafHash(entry);
    keep(level, index, hash);
    // A right child completes its parent: climb while the node is one.
    while (index % 2 === 1) {
      const left = nodes.get(subtreeId({ level, index: index - 1 }));
      if (!left) throw new Error(`the audit tree lacks subtree ${level}/${index - 1}`);
      hash = nodeHash(left, hash);
      index = (index - 1) / 2;
      level += 1;
      keep(level, index, hash);
    }
  });
  for (let start = 0; start < written.length; start += 5_000) {
    const rows = written.slice(start, start + 5_000).map((node) => sql`(${node.level}::smallint, ${String(node.index)}::bigint, ${node.hash}::bytea)`);
    await sql`INSERT INTO aopd_audit_tree_node (level, index, hash) VALUES ${sql.join(rows)}`.execute(trx);
  }
  await trx
    .updateTable("aopd_audit_head")
    .set({ tree_size: String(target) })
    .execute();
  return target - size;
}

/** The stored subtrees' hashes, by `subtreeId`, in one query. */
export async function readSubtrees(db: Kysely<AopdDatabase>, keys: readonly SubtreeKey[]): Promise<Map<string, Buffer>> {
  const nodes = new Map<string, Buffer>();
  if (keys.length === 0) return nodes;
  const wanted = sql.join(keys.map((key) => sql`(${key.level}::smallint, ${String(key.index)}::bigint)`));
  const rows = await db
    .selectFrom("aopd_audit_tree_node")
    .select(["level", "index", "hash"])
    .where(sql<boolean>`(level, index) IN (${wanted})`)
    .execute();
  // bytea: a Buffer from pg, a Uint8Array from PGlite.
  for (const row of rows) nodes.set(subtreeId({ level: row.level, index: Number(row.index) }), Buffer.from(row.hash));
  return nodes;
}

/** How many leaves the stored tree has. */
export async function auditTreeSize(db: Kysely<AopdDatabase>): Promise<number> {
  const head = await db.selectFrom("aopd_audit_head").select("tree_size").executeTakeFirstOrThrow();
  return Number(head.tree_size);
}

/** The root hash of the tree's first `size` leaves (one query). */
export async function auditTreeRoot(db: Kysely<AopdDatabase>, size: number): Promise<Buffer> {
  return rangeHash(await readSubtrees(db, subtreesOf(0, size)), 0, size);
}

/** A request for a proof the stored tree cannot give, naming the argument and what is allowed. */
export class AuditProofRangeError extends UserInputError {}

async function checkSize(db: Kysely<AopdDatabase>, size: number, field: string): Promise<void> {
  const stored = await auditTreeSize(db);
  if (!Number.isSafeInteger(size) || size < 1 || size > stored)
    throw new AuditProofRangeError(field, `must be a tree size from 1 to ${stored} (the log's size now); got ${size}.`);
}

/** PATH(leafIndex, D[0:treeSize]) from the stored subtrees, in one query. */
export async function auditInclusionProof(db: Kysely<AopdDatabase>, leafIndex: number, treeSize: number): Promise<Buffer[]> {
  await checkSize(db, treeSize, "treeSize");
  if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= treeSize)
    throw new AuditProofRangeError("seq", `must be an entry from 1 to ${treeSize} (within the tree size); got ${leafIndex + 1}.`);
  return hashesOf(db, inclusionRanges(leafIndex, treeSize));
}

/** PROOF(first, D[0:second]) from the stored subtrees, in one query. */
export async function auditConsistencyProof(db: Kysely<AopdDatabase>, first: number, second: number): Promise<Buffer[]> {
  await checkSize(db, second, "to");
  if (!Number.isSafeInteger(first) || first < 1 || first > second)
    throw new AuditProofRangeError("from", `must be a tree size from 1 to ${second} (to); got ${first}.`);
  return hashesOf(db, consistencyRanges(first, second));
}

async function hashesOf(db: Kysely<AopdDatabase>, ranges: readonly [number, number][]): Promise<Buffer[]> {
  const nodes = await readSubtrees(
    db,
    ranges.flatMap(([start, end]) => subtreesOf(start, end)),
  );
  return ranges.map(([start, end]) => rangeHash(nodes, start, end));
}
