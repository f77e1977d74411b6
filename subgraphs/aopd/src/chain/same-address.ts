import type { AddressFamily } from "@compliance-graph/dti-assets";

/**
 * Whether two spellings name one address. EVM addresses differ only in checksum capitals;
 * bech32 Bitcoin addresses (bc1, tb1, bcrt1) may be written in either case, never mixed; base58
 * addresses are case-sensitive.
 */
export function sameAddress(family: AddressFamily | null, a: string, b: string): boolean {
  if (family === "ethereum") return a.toLowerCase() === b.toLowerCase();
  if (family === "bitcoin" && /^(bc|tb|bcrt)1/i.test(a) && /^(bc|tb|bcrt)1/i.test(b)) return a.toLowerCase() === b.toLowerCase();
  return a === b;
}
