import { AddressCollector } from "./address-collector.js";
import { assetOfDigitalCurrencyLabel } from "./digital-currency-feature.js";
import type { SanctionedAddress } from "./sanctioned-address.js";
import { SanctionsListError } from "./sanctions-list-error.js";
import { streamXml } from "./stream-xml.js";

export interface ReadXmlList {
  /** The list's publication date, `YYYY-MM-DD`. */
  publishedOn: string;
  addresses: SanctionedAddress[];
}

/**
 * OFAC's classic `sdn.xml` (schema `sdn.xsd`): `sdnList` > `publshInformation` > `Publish_Date`
 * (`MM/DD/YYYY`; the element's name is misspelled in OFAC's schema), and per `sdnEntry` its `uid`,
 * `firstName`, `lastName` and `idList` > `id` > `idType` / `idNumber`, where an `idType` of
 * "Digital Currency Address - <ASSET>" makes `idNumber` a sanctioned address.
 */
export async function readSdnXml(file: string): Promise<ReadXmlList> {
  const collector = new AddressCollector();
  let publishedOn: string | undefined;
  let entry: { uid: string | null; firstName: string; lastName: string; ids: { asset: string; address: string }[] } | undefined;
  let id: { type: string; number: string } | undefined;
  await streamXml(file, {
    open(name) {
      if (name === "sdnEntry") entry = { uid: null, firstName: "", lastName: "", ids: [] };
      else if (name === "id" && entry) id = { type: "", number: "" };
    },
    close(name, text, depth) {
      if (name === "Publish_Date") publishedOn = usDate(file, text);
      if (!entry) return;
      if (id) {
        if (name === "idType") id.type = text;
        else if (name === "idNumber") id.number = text;
        else if (name === "id") {
          const asset = assetOfDigitalCurrencyLabel(id.type);
          if (asset) entry.ids.push({ asset, address: id.number });
          id = undefined;
        }
        return;
      }
      // The entry's own uid, firstName and lastName are its children (depth 3); akas and ids have their own.
      if (depth === 3 && name === "uid") entry.uid = text;
      else if (depth === 3 && name === "firstName") entry.firstName = text;
      else if (depth === 3 && name === "lastName") entry.lastName = text;
      else if (name === "sdnEntry") {
        const sdnName = [entry.firstName, entry.lastName].filter(Boolean).join(" ") || null;
        for (const { asset, address } of entry.ids) collector.add(`${file}, sdnEntry ${entry.uid ?? "?"}`, asset, address, entry.uid, sdnName);
        entry = undefined;
      }
    },
  });
  if (!publishedOn) throw new SanctionsListError(`${file} has no publshInformation/Publish_Date; an sdn.xml names the date it was published.`);
  return { publishedOn, addresses: collector.addresses };
}

function usDate(file: string, text: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!match) throw new SanctionsListError(`${file}: Publish_Date ${JSON.stringify(text.slice(0, 40))} is not a date of the form MM/DD/YYYY.`);
  return isoDate(file, Number(match[3]), Number(match[1]), Number(match[2]));
}

/** `YYYY-MM-DD` of a calendar date that exists. */
export function isoDate(where: string, year: number, month: number, day: number): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new SanctionsListError(`${where}: ${year}-${month}-${day} is not a calendar date.`);
  }
  return date.toISOString().slice(0, 10);
}
