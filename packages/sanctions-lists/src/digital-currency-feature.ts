/** The label OFAC gives a sanctioned address: `idType` in sdn.xml, a `FeatureType` in sdn_advanced.xml. */
const prefix = "Digital Currency Address - ";

/** The OFAC asset code a label names (`XBT` of "Digital Currency Address - XBT"), or undefined for any other label. */
export function assetOfDigitalCurrencyLabel(label: string): string | undefined {
  if (!label.startsWith(prefix)) return undefined;
  const code = label.slice(prefix.length).trim();
  return /^[A-Z0-9]{2,10}$/.test(code) ? code : undefined;
}
