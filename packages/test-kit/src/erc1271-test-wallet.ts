/**
 * A hand-assembled ERC-1271 wallet (no compiler here), the smallest contract account a test can
 * deploy: the constructor stores its owner (an externally owned address) in slot 0; the runtime
 * treats every call as `isValidSignature(bytes32 hash, bytes signature)` with a 65-byte
 * signature (r, s, v), asks the ecrecover precompile who signed `hash`, and returns the magic
 * value 0x1626ba7e when that is the owner, 0xffffffff otherwise, as ERC-1271 specifies.
 *
 * Runtime, by offset (calldata: 0x04 hash, 0x24 offset, 0x44 length, 0x64 r, 0x84 s, 0xa4 v):
 *   00 mem[0x00] = hash; mem[0x20] = byte 0 of the word at 0xa4 (v); mem[0x40] = r; mem[0x60] = s
 *   1b staticcall(gas, 0x01, 0x00, 0x80, 0x80, 0x20); pop the success flag (a failed recovery leaves mem[0x80] zero)
 *   28 mload(0x80) == sload(0) ? jump 0x42
 *   32 return 0xffffffff << 224
 *   42 return 0x1626ba7e << 224
 */
const runtime =
  "600435600052" +
  "60a435" +
  "60001a" +
  "602052" +
  "606435604052" +
  "608435606052" +
  "602060806080600060015afa50" +
  "608051" +
  "600054" +
  "14" +
  "604257" +
  "63ffffffff60e01b" +
  "600052" +
  "60206000f3" +
  "5b" +
  "631626ba7e60e01b" +
  "600052" +
  "60206000f3";

/** ERC-1271's magic value: what `isValidSignature` returns for a valid signature. */
export const erc1271MagicValue = "0x1626ba7e";

/** The creation code of the wallet owned by `owner` (0x and 40 hexadecimal characters). */
export function erc1271WalletBytecode(owner: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(owner)) throw new Error(`owner must be 0x and 40 hexadecimal characters; got ${owner}`);
  const length = (runtime.length / 2).toString(16).padStart(2, "0");
  // PUSH20 owner, SSTORE to slot 0; CODECOPY the runtime (which follows these 36 bytes) to memory 0 and RETURN it.
  const constructor = `73${owner.slice(2).toLowerCase()}600055` + `60${length}6024600039` + `60${length}6000f3`;
  if (constructor.length / 2 !== 0x24) throw new Error("the constructor's length changed: update its CODECOPY offset");
  return `0x${constructor}${runtime}`;
}
