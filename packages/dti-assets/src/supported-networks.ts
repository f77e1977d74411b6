import type { AddressFamily } from "./dti-asset.js";

/**
 * The networks the specification names and how the registry points at them. A native asset is
 * pinned here rather than read from the registry: the specification names seven of these codes,
 * and the registry disagrees with it on three (`NVVJ0PSWD` is "Cortex Coin" there, an ERC-20 token, `HWN9T781J`
 * "Bitmon", `K1NS41N51` plain "Bitcoin"), so the specification's name is ours and the registry's
 * is kept beside it.
 */
export interface NativeAsset {
  name: string;
  symbol: string;
  network: string;
  /** Checked by hand against each network's documentation, never taken from `UnitMultiplier`. */
  decimals: number;
  addressFamily: AddressFamily;
}

/** By DTI (without the `DTI` prefix of the enum value). */
export const nativeAssets: Readonly<Record<string, NativeAsset>> = {
  "4H95J0R2X": { name: "Bitcoin", symbol: "BTC", network: "bitcoin", decimals: 8, addressFamily: "bitcoin" },
  X9J9K872S: { name: "Ether", symbol: "ETH", network: "ethereum", decimals: 18, addressFamily: "ethereum" },
  "20J63Z4N3": { name: "Solana", symbol: "SOL", network: "solana", decimals: 9, addressFamily: "solana" },
  "993D8X1FB": { name: "TRON", symbol: "TRX", network: "tron", decimals: 6, addressFamily: "tron" },
  RQWW6J6K0: { name: "Polygon", symbol: "POL", network: "polygon", decimals: 18, addressFamily: "ethereum" },
  HWN9T781J: { name: "Binance Smart Chain", symbol: "BNB", network: "binance-smart-chain", decimals: 18, addressFamily: "ethereum" },
  // Lightning amounts are settled in millisatoshi: 11 decimal places of a bitcoin.
  NVVJ0PSWD: { name: "Lightning Network", symbol: "LN", network: "lightning", decimals: 11, addressFamily: "lightning" },
  K1NS41N51: { name: "Bitcoin on the Lightning Network", symbol: "LNBTC", network: "lightning", decimals: 11, addressFamily: "lightning" },
};

export interface TokenNetwork {
  network: string;
  addressFamily: AddressFamily;
  /** The token's `AuxiliaryTechnicalReference` as this standard writes it. */
  contract: RegExp;
  contractMeaning: string;
}

const evmContract = { contract: /^0x[0-9a-fA-F]{40}$/, contractMeaning: "a 0x contract address" };

/**
 * Token standards on the networks the specification names, by the registry's
 * `AuxiliaryDistributedLedger` and `AuxiliaryMechanism`. BEP-20 tokens point at `8N2VXJKB1`
 * (Binance Coin) rather than the chain's own code; they live on Binance Smart Chain. BEP-2 tokens
 * point there too but live on the retired Beacon Chain, with other addresses, so they are left out.
 * Omni tokens live in Bitcoin transactions and are held at Bitcoin addresses.
 */
export const tokenNetworks: Readonly<Record<string, Readonly<Record<string, TokenNetwork>>>> = {
  X9J9K872S: { "ERC-20": { network: "ethereum", addressFamily: "ethereum", ...evmContract } },
  "8N2VXJKB1": { "BEP-20": { network: "binance-smart-chain", addressFamily: "ethereum", ...evmContract } },
  RQWW6J6K0: { "ERC-20": { network: "polygon", addressFamily: "ethereum", ...evmContract } },
  "20J63Z4N3": {
    "SPL-Token": { network: "solana", addressFamily: "solana", contract: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, contractMeaning: "a base58 mint address" },
  },
  "993D8X1FB": {
    "TRC-20": { network: "tron", addressFamily: "tron", contract: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, contractMeaning: "a base58check T... contract address" },
    "TRC-10": { network: "tron", addressFamily: "tron", contract: /^[0-9]{7}$/, contractMeaning: "a 7-digit token id" },
  },
  "4H95J0R2X": { OMNI: { network: "bitcoin", addressFamily: "bitcoin", contract: /^[0-9]+$/, contractMeaning: "an Omni property id" } },
};
