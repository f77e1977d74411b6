import { existsSync, readFileSync } from "node:fs";
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { ReceiptVerificationError, verifyProofReceipt } from "../receipts/verify-proof-receipt.js";
import { receiptLogKey } from "../receipts/receipt-log-key.js";
import { ReceiptLogError, verifyReceiptLog } from "../receipts/verify-receipt-log.js";

/**
 * `npm run verify-receipt -- <receipt|file|-> [--jwks <url|file>] [--issuer <iss>] [--status-base <url>] [--log-key <vkey|url|file>]`:
 * verifies a proof receipt (docs/receipts.md) and prints what it states, asks its public status
 * whether it was revoked, and checks its decision's inclusion in the audit log against the log's key. Exit 0: valid (and not revoked, or its status could not be read,
 * which is said); 1: it does not verify or is revoked (the reason is printed); 2: wrong usage. The
 * key set and the status are fetched with a 10 s timeout.
 */
const usage =
  "usage: npm run verify-receipt -- <receipt | file | -> [--jwks <url | file>] [--issuer <iss>] [--status-base <url>] [--log-key <vkey | url | file>]\n" +
  "  --jwks         the receipt keys (default: $AOPD_RECEIPT_JWKS_URL, else http://localhost:4000/.well-known/aopd-receipt-keys.json)\n" +
  "  --issuer       the issuer (iss) to require; unchecked when absent\n" +
  "  --status-base  where the receipt's status path is asked (default: the origin of an http(s) --jwks)\n" +
  "  --log-key      the audit log's checkpoint key, to check the receipt's inclusion in the log (default: /.well-known/aopd-audit-checkpoint-key beside --jwks)";

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

const args = process.argv.slice(2);
let receiptArgument: string | undefined;
let jwks = process.env.AOPD_RECEIPT_JWKS_URL ?? "http://localhost:4000/.well-known/aopd-receipt-keys.json";
let issuer: string | undefined;
let statusBase: string | undefined;
let logKeyOption: string | undefined;
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index]!;
  if (arg === "--jwks" || arg === "--issuer" || arg === "--status-base" || arg === "--log-key") {
    const value = args[++index];
    if (value === undefined) fail(`${arg} needs a value.\n${usage}`, 2);
    if (arg === "--jwks") jwks = value;
    else if (arg === "--issuer") issuer = value;
    else if (arg === "--log-key") logKeyOption = value;
    else statusBase = value;
  } else if (arg === "--help" || arg === "-h") {
    console.log(usage);
    process.exit(0);
  } else if (receiptArgument === undefined) receiptArgument = arg;
  else fail(`Unexpected argument ${JSON.stringify(arg)}.\n${usage}`, 2);
}
if (receiptArgument === undefined) fail(`The receipt is missing.\n${usage}`, 2);

const receipt = receiptArgument === "-" ? readFileSync(0, "utf8") : existsSync(receiptArgument) ? readFileSync(receiptArgument, "utf8") : receiptArgument;
let keys: JWTVerifyGetKey;
if (/^https?:\/\//.test(jwks)) {
  keys = createRemoteJWKSet(new URL(jwks), { timeoutDuration: 10_000 });
} else {
  let set: JSONWebKeySet;
  try {
    set = JSON.parse(readFileSync(jwks, "utf8")) as JSONWebKeySet;
  } catch {
    fail(`--jwks ${JSON.stringify(jwks)} is neither an http(s) URL nor a readable JSON key set file.`, 2);
  }
  keys = createLocalJWKSet(set);
}

let verified;
try {
  verified = await verifyProofReceipt(receipt, keys, issuer !== undefined ? { issuer } : {});
} catch (error) {
  if (!(error instanceof ReceiptVerificationError)) throw error;
  fail(`The receipt does not verify (${error.code}): ${error.message}`, 1);
}
const base = statusBase ?? (/^https?:\/\//.test(jwks) ? new URL(jwks).origin : undefined);
const status = await readReceiptStatus(verified.statusPath, base);
if (status.checked && status.status === "revoked") {
  fail(`The receipt is revoked (${String(status.reason)}) since ${String(status.revokedAt)}: ${String(status.reasonText)}`, 1);
}
if (!status.checked) console.error(`The receipt's status could not be checked: ${status.note}`);
// The decision's inclusion in the audit log, checked offline against the log's key (docs/receipts.md, "log").
let inLog: string;
if (verified.log === null) inLog = "not claimed (the receipt carries no log claim)";
else {
  const logKey = await receiptLogKey(logKeyOption, jwks).catch((error: Error) => fail(`The audit log's key could not be read: ${error.message}`, 2));
  if (logKey === undefined) inLog = "not checked: give --log-key";
  else {
    try {
      const included = verifyReceiptLog(verified.log, logKey, verified.statement.id);
      inLog = `entry ${included.seq} included in the signed checkpoint of ${included.treeSize} entries of ${logKey.name}`;
    } catch (error) {
      if (!(error instanceof ReceiptLogError)) throw error;
      fail(`The receipt does not verify (${error.code}): ${error.message}`, 1);
    }
  }
}
console.log(JSON.stringify({ valid: true, ...verified, status, log: inLog }, null, 2));

/** The receipt's public status, or why it could not be read (the signature still holds; whether it was revoked is then unknown). */
async function readReceiptStatus(
  path: string | undefined,
  from: string | undefined,
): Promise<{ checked: true; status: string; [field: string]: unknown } | { checked: false; note: string }> {
  if (path === undefined) return { checked: false, note: "the receipt names no status (issued before receipts had one)." };
  if (from === undefined) return { checked: false, note: "no base URL to ask it at: give --status-base (the key set was read from a file)." };
  const url = new URL(path, from);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: "application/json" } });
    if (response.status !== 200) return { checked: false, note: `${url.href} answered ${response.status}.` };
    const body = (await response.json()) as { status?: unknown };
    if (typeof body.status !== "string") return { checked: false, note: `${url.href} did not answer a receipt status.` };
    return { checked: true, ...body, status: body.status };
  } catch (error) {
    return { checked: false, note: `${url.href} could not be reached (${error instanceof Error ? error.message : String(error)}).` };
  }
}
