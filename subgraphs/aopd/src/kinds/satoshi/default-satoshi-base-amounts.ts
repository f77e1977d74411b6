import type { AssetRegistry } from "@compliance-graph/dti-assets";

/**
 * The Satoshi proof base amounts used unless `AOPD_SATOSHI_BASE_AMOUNTS` is set: one ten-thousandth
 * of a whole unit of every asset whose decimals are known (checked), in its lowest unit: 10,000
 * satoshi, 10^14 wei, 100,000 lamports, 100 sun, 100 units of a 6-decimal token such as USDT.
 * Tokens count in their own lowest unit, never in the chain's native one. A proof adds up to
 * 10,000 lowest units at random, so amounts stay small next to network fees. Assets without known
 * decimals get no default (their amounts could be off by orders of magnitude), nor do Lightning's:
 * a payment there has no sender address to prove.
 */
export function defaultSatoshiBaseAmounts(assets: AssetRegistry): Record<string, string> {
  const amounts: Record<string, string> = {};
  for (const asset of assets.assets) {
    if (asset.decimals === null || asset.decimals < 4 || asset.addressFamily === null || asset.addressFamily === "lightning") continue;
    amounts[asset.code] = (10n ** BigInt(asset.decimals - 4)).toString();
  }
  return amounts;
}
