import { AddressCollector } from "./address-collector.js";
import { assetOfDigitalCurrencyLabel } from "./digital-currency-feature.js";
import { isoDate, type ReadXmlList } from "./read-sdn-xml.js";
import { SanctionsListError } from "./sanctions-list-error.js";
import { streamXml } from "./stream-xml.js";

/**
 * OFAC's `sdn_advanced.xml` (the "advanced" schema shared with the UN's sanctions format):
 * - `DateOfIssue` > `Year`, `Month`, `Day`: the publication date;
 * - `ReferenceValueSets` > `FeatureTypeValues` > `FeatureType ID="..."` with the text
 *   "Digital Currency Address - <ASSET>": which feature types are addresses (their ids differ per
 *   asset and are not promised to stay, so they are read from the file, which lists them first);
 * - `DistinctParties` > `DistinctParty FixedRef="..."` (the SDN uid) > `Profile` > `Identity` >
 *   `Alias Primary="true"` > `DocumentedName` > `DocumentedNamePart` > `NamePartValue`: the name;
 *   and > `Feature FeatureTypeID="..."` > `FeatureVersion` > `VersionDetail`: the address.
 */
export async function readSdnAdvancedXml(file: string): Promise<ReadXmlList> {
  const collector = new AddressCollector();
  const addressFeatureTypes = new Map<string, string>();
  const date: { year?: number; month?: number; day?: number } = {};
  let inDateOfIssue = false;
  let featureTypeId: string | undefined;
  let party: { uid: string | null; nameParts: string[]; named: boolean; addresses: { asset: string; address: string }[] } | undefined;
  let inPrimaryAlias = false;
  let featureAsset: string | undefined;
  await streamXml(file, {
    open(name, attributes) {
      if (name === "DateOfIssue") inDateOfIssue = true;
      else if (name === "FeatureType") featureTypeId = attributes.ID;
      else if (name === "DistinctParty") party = { uid: attributes.FixedRef ?? null, nameParts: [], named: false, addresses: [] };
      else if (party && name === "Alias" && attributes.Primary === "true" && !party.named) inPrimaryAlias = true;
      else if (party && name === "Feature") featureAsset = addressFeatureTypes.get(attributes.FeatureTypeID ?? "");
    },
    close(name, text) {
      if (inDateOfIssue) {
        if (name === "Year") date.year = Number(text);
        else if (name === "Month") date.month = Number(text);
        else if (name === "Day") date.day = Number(text);
        else if (name === "DateOfIssue") inDateOfIssue = false;
        return;
      }
      if (name === "FeatureType") {
        const asset = assetOfDigitalCurrencyLabel(text);
        if (asset && featureTypeId) addressFeatureTypes.set(featureTypeId, asset);
        featureTypeId = undefined;
        return;
      }
      if (!party) return;
      if (inPrimaryAlias && name === "NamePartValue") party.nameParts.push(text);
      else if (inPrimaryAlias && name === "Alias") {
        inPrimaryAlias = false;
        party.named = true;
      } else if (featureAsset && name === "VersionDetail") party.addresses.push({ asset: featureAsset, address: text });
      else if (name === "Feature") featureAsset = undefined;
      else if (name === "DistinctParty") {
        const sdnName = party.nameParts.filter(Boolean).join(" ") || null;
        for (const { asset, address } of party.addresses) collector.add(`${file}, DistinctParty ${party.uid ?? "?"}`, asset, address, party.uid, sdnName);
        party = undefined;
      }
    },
  });
  if (date.year === undefined || date.month === undefined || date.day === undefined) {
    throw new SanctionsListError(`${file} has no DateOfIssue with Year, Month and Day; an sdn_advanced.xml names the date it was issued.`);
  }
  return { publishedOn: isoDate(file, date.year, date.month, date.day), addresses: collector.addresses };
}
