import { existsSync, readFileSync } from "node:fs";
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { ReceiptVerificationError, verifyProofReceipt } from "../receipts/verify-proof-receipt.js";
import { receiptLogKey } from "../receipts/receipt-log-key.js";
import { ReceiptLogError, verifyReceiptLog } from "../receipts/verify-receipt-log.js";

/**
 * `npm run verify-receipt -- <receipt|file|-> [--jwks <url|file>] [--issuer <iss>]`: verifies a
 * proof receipt (docs/receipts.md) and prints what it states. Exit 0: valid; 1: it does not
 * verify (the reason is printed); 2: wrong usage. The key set is fetched with a 10 s timeout.
 */
const usage = "usage: npm run verify-receipt -- <receipt | file | -> [--jwks <url | file>] [--issuer <iss>] [--log-key <vkey | url | file>]\n" +
  "  --jwks     the receipt keys (default: $AOPD_RECEIPT_JWKS_URL, else http://localhost:4000/.well-known/aopd-receipt-keys.json)\n" +
  "  --issuer   the issuer (iss) to require; unchecked when absent\n" +
  "  --log-key  the audit log's checkpoint key, to check the receipt's inclusion in the log (default: /.well-known/aopd-audit-checkpoint-key beside --jwks)";

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

const args = process.argv.slice(2);
let receiptArgument: string | undefined;
let jwks = process.env.AOPD_RECEIPT_JWKS_URL ?? "http://localhost:4000/.well-known/aopd-receipt-keys.json";
let issuer: string | undefined;
let logKeyOption: string | undefined;
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index]!;
  if (arg === "--jwks" || arg === "--issuer" || arg === "--log-key") {
    const value = args[++index];
    if (value === undefined) fail(`${arg} needs a value.\n${usage}`, 2);
    if (arg === "--jwks") jwks = value;
    else if (arg === "--log-key") logKeyOption = value;
    else issuer = value;
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

try {
  const verified = await verifyProofReceipt(receipt, keys, issuer !== undefined ? { issuer } : {});
  // The decision's inclusion in the audit log, checked offline against the log's key (docs/receipts.md, "log").
  let inLog: string;
  if (verified.log === null) inLog = "not claimed (the receipt carries no log claim)";
  else {
    const logKey = await receiptLogKey(logKeyOption, jwks).catch((error: Error) => fail(`The audit log's key could not be read: ${error.message}`, 2));
    if (logKey === undefined) inLog = "not checked: give --log-key";
    else {
      const included = verifyReceiptLog(verified.log, logKey, verified.statement.id);
      inLog = `entry ${included.seq} included in the signed checkpoint of ${included.treeSize} entries of ${logKey.name}`;
    }
  }
  console.log(JSON.stringify({ valid: true, ...verified, log: inLog }, null, 2));
} catch (error) {
  if (error instanceof ReceiptLogError) fail(`The receipt does not verify (${error.code}): ${error.message}`, 1);
  if (!(error instanceof ReceiptVerificationError)) throw error;
  fail(`The receipt does not verify (${error.code}): ${error.message}`, 1);
}
