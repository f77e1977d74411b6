import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { runAuditWitness } from "../audit/audit-witness.js";
import { cosignatureV1Key, generateNoteKey, parseNoteSigner, verifierKeyOf } from "../audit/signed-note.js";

/**
 * `npm run audit-witness -- --url BASE --state FILE [--key FILE] [--log-key VKEY]`: witnesses
 * aopd's audit log (audit/audit-witness.ts, docs/audit-transparency.md). `--log-key`: the log's
 * verifier key as its operator published it; without it, the first run takes the key the URL serves. Exit code 0: the log extends what this
 * witness saw (and it cosigned, with --key); 1: it does not, naming the sizes, or a signature
 * fails; 2: the log could not be checked; 3: verified but the cosignature not delivered.
 * `--generate-key NAME --key FILE` writes a new cosignature key and prints its verifier key (for
 * aopd's AOPD_AUDIT_WITNESS_KEYS).
 */
const usage = "usage: npm run audit-witness -- --url BASE --state FILE [--key FILE] [--log-key VKEY]   or   --generate-key NAME --key FILE";
let values: { url?: string; state?: string; key?: string; "log-key"?: string; "generate-key"?: string };
try {
  ({ values } = parseArgs({
    options: { url: { type: "string" }, state: { type: "string" }, key: { type: "string" }, "log-key": { type: "string" }, "generate-key": { type: "string" } },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values["generate-key"] !== undefined) {
  if (!values.key) {
    console.error(`--generate-key needs --key FILE to write the key to\n${usage}`);
    process.exit(2);
  }
  const key = generateNoteKey(values["generate-key"], cosignatureV1Key);
  await writeFile(values.key, `${key}\n`, { mode: 0o600, flag: "wx" });
  console.log(verifierKeyOf(parseNoteSigner(key, values.key, cosignatureV1Key)));
  process.exit(0);
}
if (!values.url || !values.state) {
  console.error(usage);
  process.exit(2);
}
const run = await runAuditWitness({
  url: values.url,
  statePath: values.state,
  ...(values.key ? { keyPath: values.key } : {}),
  ...(values["log-key"] ? { logKey: values["log-key"] } : {}),
});
for (const line of run.lines) (run.code === 0 ? console.log : console.error)(line);
process.exitCode = run.code;
