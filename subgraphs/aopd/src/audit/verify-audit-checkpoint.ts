import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { parseCheckpoint } from "./audit-checkpoints.js";
import { auditEntryLeafHash } from "./audit-entry-leaf.js";
import { MerkleRootBuilder } from "./merkle-tree.js";
import { noteSignedBy, parseNote, type NoteVerifier } from "./signed-note.js";

/**
 * Checks the database against a checkpoint kept outside it (a witness's, an auditor's copy): the
 * checkpoint carries this log's signature, and the trail's first `treeSize` chained entries, each
 * rebuilt as its canonical JSON from the rows, hash to its root. The stored tree is not used: a
 * superuser who rewrote entries and recomputed every hash and node stored cannot make the rows
 * hash to a root signed before. Returns the findings; none when the database holds the checkpoint.
 */
export async function verifyAgainstCheckpoint(
  db: Kysely<AopdDatabase>,
  noteText: string,
  log: NoteVerifier,
  options: { batchSize?: number } = {},
): Promise<string[]> {
  const checkpoint = parseCheckpoint(noteText);
  if (!noteSignedBy(parseNote(noteText), log))
    return [`the checkpoint of tree size ${checkpoint.treeSize} does not carry this log's signature (${log.name}): it is not this log's checkpoint`];
  const batchSize = options.batchSize ?? 5_000;
  const builder = new MerkleRootBuilder();
  let after = 0;
  while (builder.size < checkpoint.treeSize) {
    const batch = await db
      .selectFrom("aopd_audit_entry")
      .selectAll()
      .where("seq", ">", String(after))
      .where("seq", "<=", String(checkpoint.treeSize))
      .orderBy("seq")
      .limit(batchSize)
      .execute();
    for (const entry of batch) {
      if (Number(entry.seq) !== builder.size + 1)
        return [
          `audit entry ${builder.size + 1} is missing: the witnessed checkpoint covers ${checkpoint.treeSize} entries, the trail goes from ${builder.size} to ${String(entry.seq)}`,
        ];
      builder.add(auditEntryLeafHash(entry));
    }
    if (batch.length < batchSize) break;
    after = builder.size;
  }
  if (builder.size < checkpoint.treeSize) {
    return [
      `the trail holds ${builder.size} chained entries, fewer than the ${checkpoint.treeSize} of the witnessed checkpoint: entries after ${builder.size} were removed`,
    ];
  }
  if (!builder.root().equals(checkpoint.rootHash)) {
    return [
      `the trail's first ${checkpoint.treeSize} entries do not hash to the witnessed checkpoint's root: entries up to ${checkpoint.treeSize} were changed, removed or reordered since it was signed`,
    ];
  }
  return [];
}
