import type { ScreenedFamily } from "./sanctioned-address.js";

const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const tronAddress = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const bitcoinAddress = /^([13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{8,87})$/i;

/**
 * OFAC's asset codes mapped to the address families of `AopdAsset`. An EVM address is one key on
 * every EVM chain (the same private key controls it on Ethereum, BSC, Polygon, Arbitrum and
 * Ethereum Classic), so every EVM code maps to `ethereum`, and one listed EVM address is listed on
 * every EVM network of the enum. `SOL` (first listed 2025-11-19) is Solana and its SPL tokens.
 * `BNB` (first listed 2025-11-19) is not Binance Smart Chain, whose addresses are EVM ones, but the
 * retired BNB Beacon Chain: bech32 `bnb1...` addresses of the RIPEMD160(SHA256) hash of a
 * compressed secp256k1 key. No asset of ours lives there (BEP-2 tokens are left out of the
 * registry), so such an entry matches no proof's own address; it matches the Beacon Chain address
 * of the key a signature proof on an EVM chain or TRON reveals (sibling addresses, docs/screening.md).
 * Codes not named here (LTC, BCH, BSV, BTG, DASH, XMR, XRP, XVG, ZEC) are networks `AopdAsset` does
 * not have.
 */
const familyOfCode: Readonly<Record<string, ScreenedFamily>> = {
  XBT: "bitcoin",
  ETH: "ethereum",
  BSC: "ethereum",
  ARB: "ethereum",
  ETC: "ethereum",
  TRX: "tron",
  SOL: "solana",
  BNB: "bnb-beacon",
};

/**
 * The family an entry is screened on, or null when it maps to none of ours. USDT and USDC are
 * listed under the token, not the chain: the address's own format names the chain (`0x...` an EVM
 * chain, `T...` TRON, a Bitcoin address the Omni USDT held on Bitcoin); any other format is matched
 * nowhere rather than guessed.
 */
export function familyOfOfacEntry(ofacAsset: string, address: string): ScreenedFamily | null {
  if (ofacAsset === "USDT" || ofacAsset === "USDC") {
    if (evmAddress.test(address)) return "ethereum";
    if (tronAddress.test(address)) return "tron";
    if (bitcoinAddress.test(address)) return "bitcoin";
    return null;
  }
  return familyOfCode[ofacAsset] ?? null;
}
