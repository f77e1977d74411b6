import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from "node:crypto";

/**
 * C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 keys, and witness cosignatures
 * (https://c2sp.org/tlog-cosignature): what the audit log's checkpoints are written in, so that
 * any implementation of those specifications verifies them without our code.
 */

/** The signature types of the key hash: 0x01 a signed-note Ed25519 key, 0x04 a cosignature/v1 key. */
export const ed25519NoteKey = 0x01;
export const cosignatureV1Key = 0x04;

const pkcs8Ed25519Prefix = Buffer.from("302e020100300506032b657004220420", "hex");
const spkiEd25519Prefix = Buffer.from("302a300506032b6570032100", "hex");

/** A note signer: its name, its key hash and its keys. */
export interface NoteSigner {
  name: string;
  keyHash: Buffer;
  privateKey: KeyObject;
  publicKey: Buffer;
  type: number;
}

/** A note verifier from a vkey: name, key hash, public key. */
export interface NoteVerifier {
  name: string;
  keyHash: Buffer;
  publicKey: Buffer;
  type: number;
}

/** The first 4 bytes of SHA-256(name || 0x0A || type || public key). */
export function noteKeyHash(name: string, type: number, publicKey: Buffer): Buffer {
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(`${name}\n`, "utf8"), Buffer.from([type]), publicKey]))
    .digest()
    .subarray(0, 4);
}

/** A key name: printable, no space, no '+' (signed-note). */
function checkName(name: string, where: string): void {
  if (!/^[\x21-\x2a\x2c-\x7e]+$/.test(name)) throw new Error(`${where}: a key name is printable ASCII without spaces or '+'; got ${JSON.stringify(name)}.`);
}

/** A new Ed25519 private key in the signed-note form `PRIVATE+KEY+<name>+<hex key hash>+<base64(type || seed)>`. */
export function generateNoteKey(name: string, type = ed25519NoteKey): string {
  return noteKeyOfSeed(name, randomBytes(32), type);
}

/** The signed-note private key of a 32-byte seed. */
export function noteKeyOfSeed(name: string, seed: Buffer, type = ed25519NoteKey): string {
  checkName(name, "a key");
  const publicKey = publicKeyOfSeed(seed);
  return `PRIVATE+KEY+${name}+${noteKeyHash(name, type, publicKey).toString("hex")}+${Buffer.concat([Buffer.from([type]), seed]).toString("base64")}`;
}

/** The checkpoint key for `AOPD_CHECKPOINT_KEY`: a signed-note Ed25519 key named by the log's origin. */
export function generateCheckpointKey(origin: string): string {
  return generateNoteKey(origin, ed25519NoteKey);
}

function publicKeyOfSeed(seed: Buffer): Buffer {
  return createPublicKey(createPrivateKey({ key: Buffer.concat([pkcs8Ed25519Prefix, seed]), format: "der", type: "pkcs8" }))
    .export({ format: "der", type: "spki" })
    .subarray(spkiEd25519Prefix.length);
}

/** Parses a signed-note private key; `where` names the setting in errors (the key's text never appears in one). */
export function parseNoteSigner(text: string, where: string, type = ed25519NoteKey): NoteSigner {
  // The base64 at the end may hold '+' itself; a name never does.
  const [first, second, name0, hash, ...rest] = text.trim().split("+");
  const parts = [first, second, name0, hash, rest.join("+")];
  const malformed = () =>
    new Error(
      `${where} must be a signed-note Ed25519 private key: PRIVATE+KEY+<name>+<8 hex digits>+<base64 of 0x${type.toString(16).padStart(2, "0")} and a 32-byte seed>.`,
    );
  if (rest.length === 0 || parts[0] !== "PRIVATE" || parts[1] !== "KEY" || !/^[0-9a-f]{8}$/.test(parts[3]!)) throw malformed();
  const name = parts[2]!;
  checkName(name, where);
  const raw = Buffer.from(parts[4]!, "base64");
  if (raw.length !== 33 || raw[0] !== type) throw malformed();
  const seed = raw.subarray(1);
  const publicKey = publicKeyOfSeed(seed);
  const keyHash = noteKeyHash(name, type, publicKey);
  if (keyHash.toString("hex") !== parts[3]) throw new Error(`${where}: the key hash does not match the key (a changed name or seed).`);
  return { name, keyHash, privateKey: createPrivateKey({ key: Buffer.concat([pkcs8Ed25519Prefix, seed]), format: "der", type: "pkcs8" }), publicKey, type };
}

/** The verifier key of a signer, `<name>+<hex key hash>+<base64(type || public key)>`. */
export function verifierKeyOf(signer: Pick<NoteSigner, "name" | "keyHash" | "publicKey" | "type">): string {
  return `${signer.name}+${signer.keyHash.toString("hex")}+${Buffer.concat([Buffer.from([signer.type]), signer.publicKey]).toString("base64")}`;
}

/** Parses a vkey; refuses one whose hash does not match its name and key. */
export function parseVerifierKey(text: string, where: string): NoteVerifier {
  const [name0, hash, ...rest] = text.trim().split("+");
  const parts = [name0, hash, rest.join("+")];
  if (rest.length === 0 || !/^[0-9a-f]{8}$/.test(parts[1]!))
    throw new Error(
      `${where} must be a signed-note verifier key <name>+<8 hex digits>+<base64 of the type byte and a 32-byte Ed25519 key>; got ${JSON.stringify(text.trim().slice(0, 200))}.`,
    );
  const raw = Buffer.from(parts[2]!, "base64");
  if (raw.length !== 33 || (raw[0] !== ed25519NoteKey && raw[0] !== cosignatureV1Key))
    throw new Error(`${where}: the key is not an Ed25519 key of type 0x01 (signed note) or 0x04 (cosignature/v1).`);
  const name = parts[0]!;
  checkName(name, where);
  const verifier = { name, keyHash: Buffer.from(parts[1]!, "hex"), publicKey: raw.subarray(1), type: raw[0]! };
  if (!noteKeyHash(name, verifier.type, verifier.publicKey).equals(verifier.keyHash))
    throw new Error(`${where}: the key hash does not match the name and key.`);
  return verifier;
}

/** A signed note's text and signature lines. */
export interface Note {
  /** Its text, every line ending in a line break. */
  body: string;
  signatures: { name: string; keyHash: Buffer; signature: Buffer; line: string }[];
}

/** `body` (ending in a line break) signed by `signer`: the body, a blank line, the signature line. */
export function signNote(body: string, signer: NoteSigner): string {
  if (!body.endsWith("\n")) throw new Error("a note's text ends in a line break");
  const signature = sign(null, Buffer.from(body, "utf8"), signer.privateKey);
  return `${body}\n${signatureLine(signer.name, Buffer.concat([signer.keyHash, signature]))}`;
}

function signatureLine(name: string, payload: Buffer): string {
  return `\u2014 ${name} ${payload.toString("base64")}\n`;
}

/** Splits a signed note into its text and signature lines; refuses anything else, naming what. */
export function parseNote(text: string): Note {
  const split = text.indexOf("\n\n");
  if (split < 0 || !text.endsWith("\n")) throw new Error("not a signed note: no blank line between its text and its signatures, or no final line break");
  const body = text.slice(0, split + 1);
  const lines = text.slice(split + 2, -1).split("\n");
  const signatures = lines.map((line) => {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    const payload = match ? Buffer.from(match[2]!, "base64") : Buffer.alloc(0);
    if (!match || payload.length < 5) throw new Error(`not a signed note: ${JSON.stringify(line.slice(0, 120))} is not a signature line (— <name> <base64>)`);
    return { name: match[1]!, keyHash: payload.subarray(0, 4), signature: payload.subarray(4), line: `${line}\n` };
  });
  if (signatures.length === 0) throw new Error("not a signed note: it carries no signature");
  return { body, signatures };
}

/** Whether the note carries a valid Ed25519 signature (type 0x01) by `verifier`. */
export function noteSignedBy(note: Note, verifier: NoteVerifier): boolean {
  const key = createPublicKey({ key: Buffer.concat([spkiEd25519Prefix, verifier.publicKey]), format: "der", type: "spki" });
  return note.signatures.some(
    (line) =>
      line.name === verifier.name &&
      line.keyHash.equals(verifier.keyHash) &&
      line.signature.length === 64 &&
      verify(null, Buffer.from(note.body, "utf8"), key, line.signature),
  );
}

/** The message a cosignature/v1 signs: `cosignature/v1`, `time <seconds>`, then the checkpoint's text. */
function cosignedMessage(body: string, timestamp: bigint): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, "utf8");
}

/** A witness's cosignature line (C2SP tlog-cosignature) of a checkpoint's text, at `timestamp` (seconds since 1970). */
export function cosignatureLine(body: string, witness: NoteSigner, timestamp: bigint): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(timestamp);
  const signature = sign(null, cosignedMessage(body, timestamp), witness.privateKey);
  return signatureLine(witness.name, Buffer.concat([witness.keyHash, time, signature]));
}

/** The cosignature of `witness` on the note, with its time, or null when it carries none that verifies. */
export function cosignatureOf(note: Note, witness: NoteVerifier): { line: string; timestamp: bigint } | null {
  const key = createPublicKey({ key: Buffer.concat([spkiEd25519Prefix, witness.publicKey]), format: "der", type: "spki" });
  for (const line of note.signatures) {
    if (line.name !== witness.name || !line.keyHash.equals(witness.keyHash) || line.signature.length !== 72) continue;
    const timestamp = line.signature.readBigUInt64BE(0);
    if (verify(null, cosignedMessage(note.body, timestamp), key, line.signature.subarray(8))) return { line: line.line, timestamp };
  }
  return null;
}
