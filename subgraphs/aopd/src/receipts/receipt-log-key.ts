import { existsSync, readFileSync } from "node:fs";
import { auditCheckpointKeyPath } from "../audit/audit-log-paths.js";
import { parseVerifierKey, type NoteVerifier } from "../audit/signed-note.js";

/**
 * The audit log's verifier key for `npm run verify-receipt`: `--log-key` as a vkey, a file holding
 * one, or a URL serving one; by default the checkpoint key route beside the receipt keys (the
 * same origin as `--jwks` when that is a URL). Undefined when there is nowhere to take it from.
 * Fetched with a 10 s timeout.
 */
export async function receiptLogKey(option: string | undefined, jwks: string): Promise<NoteVerifier | undefined> {
  const source = option ?? (/^https?:\/\//.test(jwks) ? new URL(auditCheckpointKeyPath, jwks).toString() : undefined);
  if (source === undefined) return undefined;
  let text = source;
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    text = await response.text();
  } else if (existsSync(source)) {
    text = readFileSync(source, "utf8");
  }
  return parseVerifierKey(text, "--log-key");
}
