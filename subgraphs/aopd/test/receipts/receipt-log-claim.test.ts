import { createHash, createPublicKey, verify as verifySignature } from "node:crypto";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Identity } from "@compliance-graph/identity";
import { pngImage } from "@compliance-graph/test-kit";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceiptLogClaim } from "../../src/receipts/receipt-log-claim.js";
import { ReceiptLogError, verifyReceiptLog } from "../../src/receipts/verify-receipt-log.js";
import { parseVerifierKey } from "../../src/audit/signed-note.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { portalApi } from "../support/portal-client.js";

const verifyReceiptCli = fileURLToPath(new URL("../../src/cli/verify-receipt.ts", import.meta.url));
const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const requester: Identity = { subject: "sa-requests", client: "intake-service", username: "service-account-intake", roles: ["proofs:read", "proofs:write"] };
const alice: Identity = {
  subject: "3f0c9a7e-alice",
  client: "compliance-console",
  username: "alice",
  roles: ["proofs:read", "proofs:assess", "proofs:export"],
};

/**
 * An RFC 9162 inclusion check written from the RFC's text (section 2.1.3.2), not from aopd's code:
 * recomputes the root from the leaf and the audit path and compares.
 */
function independentRfc9162Inclusion(entryText: string, leafIndex: number, treeSize: number, auditPath: Buffer[], expectedRoot: Buffer): boolean {
  const sha256 = (...parts: Uint8Array[]) => {
    const hash = createHash("sha256");
    for (const part of parts) hash.update(part);
    return hash.digest();
  };
  // "1. Compare leaf_index against tree_size. If leaf_index is greater than or equal to tree_size, then fail."
  if (leafIndex >= treeSize) return false;
  // "2. Set fn to leaf_index and sn to tree_size - 1."
  let fn = BigInt(leafIndex);
  let sn = BigInt(treeSize - 1);
  // "3. Set r to hash." (the leaf hash: HASH(0x00 || d))
  let r = sha256(Uint8Array.of(0), Buffer.from(entryText, "utf8"));
  // "4. For each value p in the inclusion_path array:"
  for (const p of auditPath) {
    // "a. If sn is 0, then stop the iteration and fail the proof verification."
    if (sn === 0n) return false;
    // "b. If LSB(fn) is set, or if fn is equal to sn, then:"
    if ((fn & 1n) === 1n || fn === sn) {
      // "i. Set r to HASH(0x01 || p || r)."
      r = sha256(Uint8Array.of(1), p, r);
      // "ii. If LSB(fn) is not set, then right-shift both fn and sn equally until either LSB(fn) is set or fn is 0."
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      // "Otherwise: Set r to HASH(0x01 || r || p)."
      r = sha256(Uint8Array.of(1), r, p);
    }
    // "c. Finally, right-shift both fn and sn one time."
    fn >>= 1n;
    sn >>= 1n;
  }
  // "5. Compare sn to 0. Compare r against the root_hash. If sn is equal to 0 and r and the root_hash are equal, then the log has proven the inclusion of hash."
  return sn === 0n && r.equals(expectedRoot);
}

/** A C2SP signed note's Ed25519 signature checked from the specification's text: key hash SHA-256(name || 0x0A || 0x01 || key)[:4], then the signature over the text. */
function independentNoteSignature(note: string, vkey: string): boolean {
  // <name>+<hex key hash>+<base64(0x01 || key)>: a name holds no '+', the base64 may.
  const [name, keyHashHex, ...encoded] = vkey.trim().split("+");
  const encodedKey = encoded.join("+");
  const typedKey = Buffer.from(encodedKey, "base64");
  const keyHash = createHash("sha256").update(`${name}\n`).update(typedKey).digest().subarray(0, 4);
  if (keyHash.toString("hex") !== keyHashHex || typedKey[0] !== 0x01) return false;
  const text = note.slice(0, note.indexOf("\n\n") + 1);
  const publicKey = createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), typedKey.subarray(1)]),
    format: "der",
    type: "spki",
  });
  return note
    .slice(note.indexOf("\n\n") + 2)
    .split("\n")
    .filter((line) => line.startsWith(`\u2014 ${name} `))
    .some((line) => {
      const signature = Buffer.from(line.split(" ")[2]!, "base64");
      return signature.subarray(0, 4).equals(keyHash) && verifySignature(null, Buffer.from(text, "utf8"), publicKey, signature.subarray(4));
    });
}

describe("a receipt carries its decision's inclusion in the audit log", () => {
  let aopd: AopdWithOfficers;

  beforeAll(async () => {
    aopd = await startAopdWithOfficers("pglite", {
      auditLog: { key: undefined, previousKeys: undefined, checkpointKey: undefined, checkpointIntervalMs: 100, witnessKeys: undefined },
    });
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("proves the decision's entry in a signed checkpoint, to an independent RFC 9162 verifier and to verify-receipt; a changed claim is refused", async () => {
    const run = async (identity: Identity, query: string, variables: Record<string, unknown>) => {
      const { body } = await aopd.queryAs(identity, query, variables);
      if (body.errors) throw new Error(body.errors[0]!.message);
      return body.data!.aopd as Record<string, Record<string, unknown>>;
    };
    const requested = (
      await run(requester, `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
        input: { customerId: "CUST-LOG", asset: bitcoin, expectedAddress: address },
      })
    ).requestMediaProof!;
    const uploaded = await portalApi(aopd, `${String(requested.portalUrl).split("/").pop()}/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(pngImage(24, 24, { seed: 3 })),
    });
    expect(uploaded.status).toBe(200);
    await run(alice, `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED, comment: "seen") { id } } }`, { id: requested.id });
    const { jws } = (await run(alice, `query($id: ID!) { aopd { proofReceipt(id: $id) { jws } } }`, { id: requested.id })).proofReceipt as { jws: string };

    const log = decodeJwt(jws).log as ReceiptLogClaim;
    expect(Object.keys(log).sort()).toEqual(["auditPath", "checkpoint", "entry", "leafIndex", "treeSize"]);
    const entry = JSON.parse(log.entry) as { seq: number; action: string; proofId: string; actor: { subject: string } };
    expect(entry).toMatchObject({ seq: log.leafIndex + 1, action: "DECIDED", proofId: requested.id, actor: { subject: alice.subject } });
    const [, size, root] = log.checkpoint.split("\n");
    expect(Number(size)).toBe(log.treeSize);
    const vkey = await (await fetch(new URL("/.well-known/aopd-audit-checkpoint-key", aopd.url))).text();
    // Checked without aopd's code: the checkpoint's signature and the entry's inclusion in its root.
    expect(independentNoteSignature(log.checkpoint, vkey)).toBe(true);
    const path = log.auditPath.map((hash) => Buffer.from(hash, "base64"));
    expect(independentRfc9162Inclusion(log.entry, log.leafIndex, log.treeSize, path, Buffer.from(root!, "base64"))).toBe(true);
    const changedEntry = log.entry.replace(alice.subject, "someone-else");
    expect(independentRfc9162Inclusion(changedEntry, log.leafIndex, log.treeSize, path, Buffer.from(root!, "base64"))).toBe(false);
    // aopd's own check agrees, and refuses the changed entry.
    const logKey = parseVerifierKey(vkey, "the log's key");
    expect(verifyReceiptLog(log, logKey, String(requested.id))).toEqual({ treeSize: log.treeSize, seq: entry.seq });
    expect(() => verifyReceiptLog({ ...log, entry: changedEntry }, logKey, String(requested.id))).toThrow(ReceiptLogError);
    expect(() => verifyReceiptLog(log, logKey, "00000000-0000-4000-8000-000000000000")).toThrow(/about another proof/);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", verifyReceiptCli, jws, "--jwks", new URL("/.well-known/aopd-receipt-keys.json", aopd.url).toString()],
      { timeout: 120_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      valid: true,
      log: `entry ${entry.seq} included in the signed checkpoint of ${log.treeSize} entries of dev.compliance-graph.invalid/aopd-audit`,
    });
  }, 180_000);
});
