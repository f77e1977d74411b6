import type { DtiAsset } from "@compliance-graph/dti-assets";
import { amountInUnits } from "./amount-in-units.js";

// EIP-155 chain ids of the Ethereum-family networks the asset registry names (EIP-681 `@chain_id`).
const ethereumChainIds: Record<string, number> = { ethereum: 1, polygon: 137, "binance-smart-chain": 56 };

/**
 * A link a wallet opens to pay the deposit: BIP-21 for bitcoin, EIP-681 on an Ethereum-family
 * network (a token's as a call of its `transfer`, never as a native payment of the same number),
 * Solana Pay for SOL and SPL tokens (whole units, so only with known decimals); null otherwise
 * (TRON has no such standard, and Omni tokens need a wallet that builds Omni transactions).
 */
export function paymentUri(asset: DtiAsset | undefined, depositAddress: string, amount: string): string | null {
  if (!asset) return null;
  if (asset.addressFamily === "bitcoin" && asset.standard === null) {
    return `bitcoin:${depositAddress}?amount=${amountInUnits(amount, asset.decimals ?? 8)}`;
  }
  if (asset.addressFamily === "ethereum") {
    const chainId = asset.network === null ? undefined : ethereumChainIds[asset.network];
    const chain = chainId === undefined ? "" : `@${chainId}`;
    if (asset.standard === null) return `ethereum:${depositAddress}${chain}?value=${amount}`;
    return `ethereum:${asset.contract}${chain}/transfer?address=${depositAddress}&uint256=${amount}`;
  }
  if (asset.addressFamily === "solana" && asset.decimals !== null) {
    const token = asset.standard === null ? "" : `&spl-token=${asset.contract}`;
    return `solana:${depositAddress}?amount=${amountInUnits(amount, asset.decimals)}${token}`;
  }
  return null;
}
