import { equalBytes } from "@noble/curves/utils.js";
import type { HDKey } from "@scure/bip32";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { OwnershipInputError } from "./ownership-input-error.js";
import { parseBitcoinAddress, type BitcoinAddress } from "./parse-bitcoin-address.js";
import { parseExtendedPublicKey, type XpubAddressForm } from "./parse-extended-public-key.js";
import { taprootOutputKey } from "./taproot-output-key.js";

/**
 * An xpub proof claims that an address belongs to a wallet. The claim holds only if the address
 * is one of the wallet's own addresses: a non-hardened child m/chain/index of the extended key,
 * in an address form the key's version allows. Without this check a customer could attach any
 * address (somebody else's) to a signature proof made with their own wallet key.
 */

export interface XpubDerivation {
  /** 0 for the receive chain, 1 for the change chain. */
  readonly chain: 0 | 1;
  readonly index: number;
}

/** The largest `maxIndex` accepted; beyond it a search takes seconds. */
const maxSearchIndex = 100_000;

/**
 * Finds the path m/chain/index (chain 0 or 1, index 0..maxIndex inclusive) below `xpub` whose
 * address is `address`, or `undefined` when there is none: the address is of another network, a
 * form the key's version excludes, or simply not among the searched children.
 *
 * Throws `OwnershipInputError` (code INVALID_EXTENDED_KEY or INVALID_ADDRESS) for input that
 * cannot be read, with a message safe to show to the client.
 *
 * Cost: each child is one public derivation (a point multiplication), about 0.5 ms on one core;
 * Taproot adds the tweak and doubles that. A match returns at once, but a miss with the default
 * walks 2 × 1,001 children, roughly 1 s (2 s for Taproot) of synchronous CPU. Callers should
 * check an xpub once per submitted proof and rate-limit submissions.
 */
export function findXpubDerivation(input: {
  xpub: string;
  address: string;
  /** Highest child index tried on each chain, inclusive. @default 1_000 */
  maxIndex?: number;
}): XpubDerivation | undefined {
  const maxIndex = input.maxIndex ?? 1_000;
  if (!Number.isSafeInteger(maxIndex) || maxIndex < 0 || maxIndex > maxSearchIndex) {
    throw new RangeError(`maxIndex must be an integer from 0 to ${maxSearchIndex}.`);
  }
  const xpub = parseExtendedPublicKey(input.xpub);
  if (!xpub.ok) throw new OwnershipInputError(xpub.code, xpub.reason);
  const address = parseBitcoinAddress(input.address);
  if (!address.ok) throw new OwnershipInputError(address.code, address.reason);

  const form = addressForm(address);
  const sameNetwork = xpub.network === "mainnet" ? address.network === "mainnet" : address.network !== "mainnet";
  if (form === undefined || !sameNetwork || !xpub.forms.includes(form)) return undefined;

  const matches = programMatcher(form, address.program);
  // Derive each chain key once; every address is then one public child derivation away.
  const chains: ReadonlyArray<readonly [0 | 1, HDKey]> = [
    [0, xpub.key.deriveChild(0)],
    [1, xpub.key.deriveChild(1)],
  ];
  // Interleaved, so that low indexes of the change chain are found as early as those of receive.
  for (let index = 0; index <= maxIndex; index += 1) {
    for (const [chain, chainKey] of chains) {
      const publicKey = chainKey.deriveChild(index).publicKey;
      if (publicKey !== null && matches(publicKey)) return { chain, index };
    }
  }
  return undefined;
}

function addressForm(address: BitcoinAddress): XpubAddressForm | undefined {
  switch (address.format) {
    case "P2PKH":
      return "P2PKH";
    case "P2SH":
      return "P2SH-P2WPKH";
    case "P2WPKH":
      return "P2WPKH";
    case "P2TR":
      return "P2TR";
    case "P2WSH":
      return undefined;
  }
}

/** How a child's compressed public key becomes the address program of each form. */
function programMatcher(form: XpubAddressForm, program: Uint8Array): (publicKey: Uint8Array) => boolean {
  switch (form) {
    case "P2PKH":
    case "P2WPKH":
      return (publicKey) => equalBytes(hash160(publicKey), program);
    case "P2SH-P2WPKH":
      return (publicKey) => equalBytes(nestedSegwitScriptHash(publicKey), program);
    case "P2TR":
      return (publicKey) => equalBytes(taprootOutputKey(publicKey), program);
  }
}
