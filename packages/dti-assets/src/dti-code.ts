/**
 * A DTI is 9 characters from a 30-symbol alphabet: the digits and the consonants except Y (vowels
 * and Y are left out so that no code spells a word). The last character is meant to be an ISO 7064
 * check character, but the registry itself holds codes that fail that check (Bitcoin's among
 * them), so only the shape is validated.
 */
export const dtiSymbols = "0123456789BCDFGHJKLMNPQRSTVWXZ";

const dtiPattern = new RegExp(`^[${dtiSymbols}]{9}$`);

export function isDtiIdentifier(identifier: string): boolean {
  return dtiPattern.test(identifier);
}

/** The enum value for a registry identifier: GraphQL names cannot start with a digit, hence the prefix. */
export function dtiCode(identifier: string): string {
  if (!isDtiIdentifier(identifier)) {
    throw new Error(`${JSON.stringify(identifier)} is not a DTI: expected 9 characters from ${dtiSymbols}.`);
  }
  return `DTI${identifier}`;
}

export function isDtiCode(code: string): boolean {
  return code.startsWith("DTI") && isDtiIdentifier(code.slice(3));
}
