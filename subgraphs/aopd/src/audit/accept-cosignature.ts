import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { parseCheckpoint } from "./audit-checkpoints.js";
import { cosignatureOf, noteSignedBy, parseNote, type NoteSigner, type NoteVerifier } from "./signed-note.js";

/** A cosignature refused, with the HTTP status that says why. */
export class CosignatureRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Keeps the cosignatures of configured witnesses on a checkpoint aopd signed, so that
 * `/.well-known/aopd-audit-checkpoint` publishes them. Refused: a note that is not a checkpoint,
 * one aopd did not sign or did not keep, one without a valid cosignature of a configured witness.
 * A witness's second cosignature of one size keeps the first (repeated, same answer).
 */
export async function acceptCosignature(
  db: Kysely<AopdDatabase>,
  log: { signer: NoteSigner; witnesses: readonly NoteVerifier[] },
  noteText: string,
): Promise<{ treeSize: number; witnesses: string[] }> {
  let checkpoint;
  let note;
  try {
    note = parseNote(noteText);
    checkpoint = parseCheckpoint(noteText);
  } catch (error) {
    throw new CosignatureRefusal(400, (error as Error).message);
  }
  if (!noteSignedBy(note, log.signer)) throw new CosignatureRefusal(400, `the checkpoint does not carry this log's signature (${log.signer.name})`);
  const kept = await db.selectFrom("aopd_audit_checkpoint").select("note").where("tree_size", "=", String(checkpoint.treeSize)).executeTakeFirst();
  if (!kept || parseNote(kept.note).body !== note.body)
    throw new CosignatureRefusal(404, `this log signed no such checkpoint of tree size ${checkpoint.treeSize}`);
  const cosigned = log.witnesses.flatMap((witness) => {
    const cosignature = cosignatureOf(note, witness);
    return cosignature ? [{ witness: witness.name, line: cosignature.line }] : [];
  });
  if (cosigned.length === 0) {
    throw new CosignatureRefusal(
      403,
      log.witnesses.length === 0
        ? "this log accepts no cosignatures: no witness is configured (AOPD_AUDIT_WITNESS_KEYS)"
        : `the checkpoint carries no valid cosignature of a configured witness (${log.witnesses.map((w) => w.name).join(", ")})`,
    );
  }
  await db
    .insertInto("aopd_audit_cosignature")
    .values(cosigned.map((entry) => ({ tree_size: String(checkpoint.treeSize), witness: entry.witness, signature_line: entry.line })))
    .onConflict((oc) => oc.columns(["tree_size", "witness"]).doNothing())
    .execute();
  return { treeSize: checkpoint.treeSize, witnesses: cosigned.map((entry) => entry.witness) };
}
