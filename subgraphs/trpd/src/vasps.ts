/**
 * The built-in VASP list of the stub: enough for `trpd { vasps { name } }` to answer and for the
 * composition and entity joins to be exercised. A real travel-rule domain reads a directory.
 */
export interface Vasp {
  name: string;
}

export const vasps: readonly Vasp[] = [{ name: "Bitstamp" }, { name: "Coinbase" }, { name: "Kraken" }, { name: "Notabene Test VASP" }, { name: "Sygnum Bank" }];
