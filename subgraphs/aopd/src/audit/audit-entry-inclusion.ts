import { NotFoundError, UserInputError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { auditCheckpointAt, latestAuditCheckpoint } from "./audit-checkpoints.js";
import { auditEntryCanonicalJson } from "./audit-entry-leaf.js";
import { auditInclusionProof, auditTreeRoot } from "./audit-tree-store.js";

/** What proves one entry is in the log: the entry's text, its RFC 9162 inclusion proof, and the checkpoint it is proven against. */
export interface AuditEntryInclusion {
  /** The entry's canonical JSON: its leaf is SHA-256(0x00 || this text). */
  entry: string;
  leafIndex: number;
  treeSize: number;
  /** The audit path, each hash in base64. */
  auditPath: string[];
  /** The tree's root hash, base64. */
  rootHash: string;
  /** The signed checkpoint of `treeSize` with its cosignatures; null when none was signed at that size. */
  checkpoint: string | null;
}

/**
 * The inclusion proof of the chained entry `seq` in the tree of `treeSize` entries, by default
 * the latest signed checkpoint's (so that the root is one aopd committed to).
 */
export async function auditEntryInclusion(db: Kysely<AopdDatabase>, seq: string, treeSize?: number): Promise<AuditEntryInclusion> {
  if (!/^[1-9]\d{0,14}$/.test(seq))
    throw new UserInputError("seq", `must be an entry's place in the trail, a whole number from 1; got ${JSON.stringify(seq)}.`);
  const row = await db.selectFrom("aopd_audit_entry").selectAll().where("seq", "=", seq).executeTakeFirst();
  if (!row) throw new NotFoundError("The chained audit entry", seq);
  let size = treeSize;
  if (size === undefined) {
    const latest = await latestAuditCheckpoint(db);
    if (!latest || latest.treeSize < Number(seq)) throw new NotFoundError("A signed checkpoint covering audit entry", seq);
    size = latest.treeSize;
  }
  const auditPath = await auditInclusionProof(db, Number(seq) - 1, size);
  return {
    entry: auditEntryCanonicalJson(row),
    leafIndex: Number(seq) - 1,
    treeSize: size,
    auditPath: auditPath.map((hash) => hash.toString("base64")),
    rootHash: (await auditTreeRoot(db, size)).toString("base64"),
    checkpoint: await auditCheckpointAt(db, size),
  };
}
