import { readFile } from "node:fs/promises";
import type { AuditLogConfig } from "./audit-log-config.js";
import { loadCheckpointSigner } from "./checkpoint-signer.js";
import type { NoteVerifier } from "./signed-note.js";

/**
 * `--checkpoint FILE` of `npm run verify-audit`: a checkpoint note, or a witness's state file
 * (JSON with its `checkpoint`), and this deployment's checkpoint verifier key; undefined without
 * the option.
 */
export async function readCheckpointArgument(
  args: readonly string[],
  config: { auditLog: AuditLogConfig; production: boolean },
): Promise<{ note: string; log: NoteVerifier } | undefined> {
  const at = args.indexOf("--checkpoint");
  if (at < 0) return undefined;
  const file = args[at + 1];
  if (!file) throw new Error("--checkpoint needs a file: a checkpoint note, or an audit witness's state file");
  const text = await readFile(file, "utf8");
  const note = text.trimStart().startsWith("{") ? (JSON.parse(text) as { checkpoint?: unknown }).checkpoint : text;
  if (typeof note !== "string") throw new Error(`${file} is a JSON file without a checkpoint: give a checkpoint note or an audit witness's state file`);
  return { note, log: loadCheckpointSigner(config.auditLog, config.production).signer };
}
