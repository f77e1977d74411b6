import { utf8ToBytes } from "@noble/hashes/utils.js";
import { doubleSha256 } from "./bitcoin-hashes.js";
import { encodeCompactSize } from "./compact-size.js";

const magic = utf8ToBytes("\x18Bitcoin Signed Message:\n");

/**
 * The digest that legacy (Bitcoin Core `signmessage`, Electrum, BIP-137) signatures commit to:
 * SHA256d("\x18Bitcoin Signed Message:\n" || CompactSize(len) || message). The prefix keeps a
 * signed message from ever being a valid transaction digest.
 */
export function bitcoinMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  const length = encodeCompactSize(body.length);
  const data = new Uint8Array(magic.length + length.length + body.length);
  data.set(magic, 0);
  data.set(length, magic.length);
  data.set(body, magic.length + length.length);
  return doubleSha256(data);
}
