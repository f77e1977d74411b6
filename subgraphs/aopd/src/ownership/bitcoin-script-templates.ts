/**
 * The only scripts a BIP-322 script signature may spend here, recognised byte for byte. A script
 * that is not exactly one of these templates is refused, never run: this is a checker for four
 * known shapes, not a general Script interpreter, so nothing outside them can be mis-executed.
 *
 *   multi (and sortedmulti, which is multi with its keys in byte order; the script is the same):
 *     OP_k <33-byte key>×n OP_n OP_CHECKMULTISIG             1 ≤ k ≤ n ≤ 16, witness v0
 *   tapscript single key:  <32-byte x-only key> OP_CHECKSIG    leaf version 0xc0
 *   multi_a:  <key1> OP_CHECKSIG <key2> OP_CHECKSIGADD … <keyn> OP_CHECKSIGADD <k> OP_NUMEQUAL
 *
 * The descriptor names (`multi`, `sortedmulti`, `multi_a`) are BIP-383's and BIP-387's.
 */

const OP_0 = 0x00;
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_CHECKSIG = 0xac;
const OP_CHECKSIGADD = 0xba;
const OP_CHECKMULTISIG = 0xae;
const OP_NUMEQUAL = 0x9c;

export interface WitnessMultisigScript {
  readonly template: "multi" | "sortedmulti";
  readonly threshold: number;
  /** Compressed public keys in script order. */
  readonly publicKeys: readonly Uint8Array[];
}

export type TapscriptTemplate =
  | { readonly template: "pk"; readonly threshold: 1; readonly publicKeys: readonly [Uint8Array] }
  | { readonly template: "multi_a"; readonly threshold: number; readonly publicKeys: readonly Uint8Array[] };

/** Reads `OP_k <keys> OP_n OP_CHECKMULTISIG`, or undefined for any other script. */
export function parseWitnessMultisig(script: Uint8Array): WitnessMultisigScript | undefined {
  const threshold = smallNumber(script[0]);
  if (threshold === undefined) return undefined;
  const publicKeys: Uint8Array[] = [];
  let offset = 1;
  while (script[offset] === 33 && offset + 34 <= script.length) {
    const key = script.subarray(offset + 1, offset + 34);
    if (key[0] !== 0x02 && key[0] !== 0x03) return undefined;
    publicKeys.push(key);
    offset += 34;
  }
  const count = smallNumber(script[offset]);
  if (count === undefined || count !== publicKeys.length || threshold > count) return undefined;
  if (offset + 2 !== script.length || script[offset + 1] !== OP_CHECKMULTISIG) return undefined;
  return { template: isSorted(publicKeys) ? "sortedmulti" : "multi", threshold, publicKeys };
}

/** Reads a single-key or `multi_a` tapscript leaf, or undefined for any other script. */
export function parseTapscript(script: Uint8Array): TapscriptTemplate | undefined {
  if (script.length === 34 && script[0] === 32 && script[33] === OP_CHECKSIG) {
    return { template: "pk", threshold: 1, publicKeys: [script.subarray(1, 33)] };
  }
  const publicKeys: Uint8Array[] = [];
  let offset = 0;
  while (script[offset] === 32 && offset + 34 <= script.length) {
    const expected = publicKeys.length === 0 ? OP_CHECKSIG : OP_CHECKSIGADD;
    if (script[offset + 33] !== expected) return undefined;
    publicKeys.push(script.subarray(offset + 1, offset + 33));
    offset += 34;
  }
  if (publicKeys.length < 2) return undefined;
  const threshold = minimalNumber(script, offset);
  if (threshold === undefined || threshold.value < 1 || threshold.value > publicKeys.length) return undefined;
  if (threshold.next + 1 !== script.length || script[threshold.next] !== OP_NUMEQUAL) return undefined;
  return { template: "multi_a", threshold: threshold.value, publicKeys };
}

/** OP_1..OP_16 as 1..16. */
function smallNumber(opcode: number | undefined): number | undefined {
  return opcode !== undefined && opcode >= OP_1 && opcode <= OP_16 ? opcode - OP_1 + 1 : undefined;
}

/**
 * A threshold as Script pushes it minimally: OP_1..OP_16, else a 1- or 2-byte little-endian push
 * (multi_a allows up to 999 keys; a threshold above 16 needs a push).
 */
function minimalNumber(script: Uint8Array, offset: number): { value: number; next: number } | undefined {
  const opcode = script[offset];
  const small = smallNumber(opcode);
  if (small !== undefined) return { value: small, next: offset + 1 };
  if (opcode === OP_0 || (opcode !== 1 && opcode !== 2) || offset + 1 + opcode > script.length) return undefined;
  const bytes = script.subarray(offset + 1, offset + 1 + opcode);
  const last = bytes[bytes.length - 1]!;
  // The sign bit must be clear, and the top byte not a needless zero (minimal encoding).
  if (last & 0x80) return undefined;
  if (last === 0 && (bytes.length === 1 || (bytes[bytes.length - 2]! & 0x80) === 0)) return undefined;
  const value = bytes.length === 1 ? bytes[0]! : bytes[0]! | (bytes[1]! << 8);
  return value <= 16 ? undefined : { value, next: offset + 1 + opcode };
}

function isSorted(keys: readonly Uint8Array[]): boolean {
  for (let i = 1; i < keys.length; i += 1) if (compareBytes(keys[i - 1]!, keys[i]!) > 0) return false;
  return true;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
