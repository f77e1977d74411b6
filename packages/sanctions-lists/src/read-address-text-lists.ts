import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { AddressCollector } from "./address-collector.js";
import type { SanctionedAddress } from "./sanctioned-address.js";
import { SanctionsListError } from "./sanctions-list-error.js";

/** The per-asset lists as 0xB10C's extractor publishes them: `sanctioned_addresses_<ASSET>.txt`. */
export const textListName = /^sanctioned_addresses_([A-Z0-9]{2,10})\.txt$/;

/** A text list's size limit: the largest today is 16 kB; anything near this is not such a list. @default 64 MiB */
const maxTextListBytes = 64 * 1024 * 1024;

/** Reads per-asset text lists: one address per line, exactly as the SDN list spells it; blank lines skipped. */
export async function readAddressTextLists(files: readonly string[]): Promise<SanctionedAddress[]> {
  const collector = new AddressCollector();
  for (const file of files) {
    const asset = textListName.exec(basename(file))?.[1];
    if (!asset) throw new SanctionsListError(`${file}: a text list is named sanctioned_addresses_<ASSET>.txt (ASSET as OFAC codes it, e.g. XBT).`);
    if (statSync(file).size > maxTextListBytes)
      throw new SanctionsListError(`${file} is larger than ${maxTextListBytes} bytes; a per-asset list is far smaller.`);
    const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      collector.add(`${file}:${lineNumber}`, asset, line, null, null);
    }
  }
  return collector.addresses;
}
