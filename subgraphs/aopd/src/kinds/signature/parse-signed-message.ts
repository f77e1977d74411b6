/**
 * What a customer pastes into the portal's signature field: the bare signature, or the block a
 * wallet exports. Bitcoin wallets (Electrum, Sparrow, Coldcard) armor the message, the address and
 * the signature:
 *
 *     -----BEGIN BITCOIN SIGNED MESSAGE-----
 *     <message, possibly several lines>
 *     -----BEGIN SIGNATURE-----            (or: -----BEGIN BITCOIN SIGNATURE-----, with
 *     <address>                              "Address: <address>" and other headers)
 *     <base64 signature>
 *     -----END BITCOIN SIGNED MESSAGE-----  (or: -----END BITCOIN SIGNATURE-----)
 *
 * Ethereum wallets (MyEtherWallet, MyCrypto, Etherscan's verifier) export `{ "address", "msg",
 * "sig" }` JSON. A block's message is returned for the caller to compare with the requested one:
 * the signature is over the block's message, so a different one can never verify, and saying so
 * ("wrong message") is the one refusal the customer can act on.
 */
export type SignedMessage = { ok: true; signature: string; address: string | undefined; message: string | undefined } | { ok: false; reason: string };

const bitcoinBegin = "-----BEGIN BITCOIN SIGNED MESSAGE-----";
const signatureBegin = /^-----BEGIN (BITCOIN )?SIGNATURE-----$/;
const blockEnd = /^-----END BITCOIN (SIGNED MESSAGE|SIGNATURE)-----$/;
const header = /^([A-Za-z][A-Za-z-]*):\s*(.*)$/;

export function parseSignedMessage(text: string): SignedMessage {
  const trimmed = text.trim();
  if (trimmed.startsWith(bitcoinBegin)) return parseBitcoinArmor(trimmed);
  if (trimmed.startsWith("{")) return parseEthereumJson(trimmed);
  return { ok: true, signature: trimmed, address: undefined, message: undefined };
}

function parseBitcoinArmor(text: string): SignedMessage {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const signatureAt = lines.findIndex((line) => signatureBegin.test(line.trim()));
  const endAt = lines.findIndex((line, index) => index > signatureAt && blockEnd.test(line.trim()));
  if (signatureAt < 1 || endAt < 0) {
    return { ok: false, reason: "The signed-message block is incomplete: it needs the message, a BEGIN SIGNATURE line, the signature and an END line." };
  }
  const message = lines.slice(1, signatureAt).join("\n");
  let address: string | undefined;
  const rest: string[] = [];
  for (const raw of lines.slice(signatureAt + 1, endAt)) {
    const line = raw.trim();
    if (line === "") continue;
    const named = header.exec(line);
    if (named) {
      if (named[1]!.toLowerCase() === "address") address = named[2]!.trim();
      continue;
    }
    rest.push(line);
  }
  // Without an Address header the first line is the address, the remaining lines the signature.
  if (address === undefined && rest.length >= 2) address = rest.shift();
  const signature = rest.join("");
  if (signature === "") return { ok: false, reason: "The signed-message block holds no signature." };
  return { ok: true, signature, address, message };
}

function parseEthereumJson(text: string): SignedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "The signature looks like JSON but is not valid JSON; paste the { address, msg, sig } your wallet exported." };
  }
  const { address, msg, sig } = (value ?? {}) as Record<string, unknown>;
  if (typeof sig !== "string" || typeof msg !== "string" || (address !== undefined && typeof address !== "string")) {
    return { ok: false, reason: "A signed-message JSON needs the strings msg and sig (and address)." };
  }
  return { ok: true, signature: sig.trim(), address: address?.trim(), message: msg };
}

/**
 * Whether a block's message is the requested one. Some Ethereum wallets export the signed bytes
 * hex-encoded, so `0x` and the hex of the message's UTF-8 bytes counts as the same message.
 */
export function isRequestedMessage(blockMessage: string, requested: string): boolean {
  if (blockMessage === requested) return true;
  if (/^0x([0-9a-fA-F]{2})*$/.test(blockMessage)) return Buffer.from(blockMessage.slice(2), "hex").toString("utf8") === requested;
  return false;
}
