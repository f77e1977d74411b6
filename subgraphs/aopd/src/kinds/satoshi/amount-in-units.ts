/** `amount` (lowest denomination) in whole units, without trailing zeros: 10042 sat is "0.00010042"; null without known decimals. */
export function amountInUnits(amount: string, decimals: number | null): string | null {
  if (decimals === null) return null;
  const digits = amount.replace(/^0+(?=\d)/, "").padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
