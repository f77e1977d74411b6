/**
 * Whether an address is written the way its address family writes addresses: a check of shape
 * only, before a request is sent, so that an officer who picked the ERC-20 token and typed a TRON
 * address hears of it at once. The API verifies each address fully; this never replaces that.
 * Undefined where the family is unknown or has no single shape (Lightning).
 */
const base58 = "[1-9A-HJ-NP-Za-km-z]";
const shapes: Record<string, RegExp> = {
  bitcoin: new RegExp(`^(?:(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|[13mn2]${base58}{25,34})$`, "i"),
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  tron: new RegExp(`^T${base58}{33}$`),
  solana: new RegExp(`^${base58}{32,44}$`),
};

export function addressFitsFamily(family: string | null | undefined, address: string): boolean | undefined {
  const shape = family ? shapes[family] : undefined;
  return shape ? shape.test(address.trim()) : undefined;
}
