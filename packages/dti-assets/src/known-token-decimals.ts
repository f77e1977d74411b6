/**
 * Decimals of tokens whose contracts we checked against the token's own definition (the
 * contract's `decimals()`, the mint account). The registry's `UnitMultiplier` is not enough: it
 * is wrong for some assets (Solana's says 10^18; SOL has 9), and an amount read with wrong
 * decimals is off by orders of magnitude, so a token not listed here keeps null decimals.
 * Keyed by network and contract (EVM contracts in lower case).
 */
export const knownTokenDecimals: Readonly<Record<string, number>> = {
  "ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7": 6, // Tether USD
  "ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": 6, // USD Coin
  "ethereum:0x2260fac5e5542a773aa44fbcfedf7c193bc2c599": 8, // Wrapped BTC
  "ethereum:0x6b175474e89094c44da98b954eedeac495271d0f": 18, // Dai
  "ethereum:0x514910771af9ca656af840dff83e8264ecf986ca": 18, // Chainlink
  "ethereum:0x1f9840a85d5af5bf1d1762f925bdaddc4201f984": 18, // Uniswap
  "ethereum:0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce": 18, // Shiba Inu
  "binance-smart-chain:0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c": 18, // Wrapped BNB
  "binance-smart-chain:0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c": 18, // BTCB
  "binance-smart-chain:0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82": 18, // PancakeSwap
  "solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v": 6, // USD Coin
  "solana:mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So": 9, // Marinade staked SOL
  "tron:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t": 6, // Tether USD
  "tron:TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8": 6, // USD Coin
};

export function knownDecimalsOf(network: string, contract: string): number | null {
  const key = contract.startsWith("0x") ? `${network}:${contract.toLowerCase()}` : `${network}:${contract}`;
  return knownTokenDecimals[key] ?? null;
}
