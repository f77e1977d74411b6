import { createHash } from "node:crypto";
import { openSync, readSync, closeSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readAddressTextLists, textListName } from "./read-address-text-lists.js";
import { readSdnAdvancedXml } from "./read-sdn-advanced-xml.js";
import { isoDate, readSdnXml } from "./read-sdn-xml.js";
import type { SanctionedAddress } from "./sanctioned-address.js";
import { SanctionsListError } from "./sanctions-list-error.js";
import { ofacSdnListName, type SanctionsListVersion } from "./sanctions-list-version.js";

export interface ReadSanctionsListOptions {
  /** The publication date of text lists, `YYYY-MM-DD`; by default taken from a folder named `...-YYYY-MM-DD`. XML files carry their own. */
  publishedOn?: string;
}

const datedFolder = /(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads one list version from what an operator names: a folder of per-asset text lists (or the
 * text files themselves), or one OFAC XML file (`sdn.xml` or `sdn_advanced.xml`, told apart by their
 * root element, or a folder holding exactly one of them). Everything is read before anything is
 * imported, so a bad file imports nothing.
 */
export async function readSanctionsList(paths: readonly string[], options: ReadSanctionsListOptions = {}): Promise<SanctionsListVersion> {
  if (paths.length === 0) throw new SanctionsListError("Name a folder of sanctioned_addresses_<ASSET>.txt files, or an sdn.xml or sdn_advanced.xml file.");
  const files: string[] = [];
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new SanctionsListError(`${path} does not exist or cannot be read.`);
    }
    if (!isFolder) files.push(path);
    else for (const name of readdirSync(path).sort()) if (textListName.test(name) || name.toLowerCase().endsWith(".xml")) files.push(join(path, name));
  }
  const xmlFiles = files.filter((file) => file.toLowerCase().endsWith(".xml"));
  if (xmlFiles.length > 0) {
    if (files.length !== 1) {
      throw new SanctionsListError(`One import is one list version: name one XML file alone (given ${files.map((file) => basename(file)).join(", ")}).`);
    }
    const file = xmlFiles[0]!;
    const root = rootElementOf(file);
    const read = root === "sdnList" ? await readSdnXml(file) : root === "Sanctions" ? await readSdnAdvancedXml(file) : undefined;
    if (!read) throw new SanctionsListError(`${file}: root element <${root ?? "?"}> is neither sdn.xml's <sdnList> nor sdn_advanced.xml's <Sanctions>.`);
    return versionOf(read.publishedOn, `${root === "sdnList" ? "sdn.xml" : "sdn_advanced.xml"} ${basename(file)}`, read.addresses);
  }
  if (files.length === 0) throw new SanctionsListError(`${paths.join(", ")}: no sanctioned_addresses_<ASSET>.txt or .xml file found.`);
  const publishedOn = options.publishedOn === undefined ? dateOfFolder(files) : checkedDate(options.publishedOn);
  const addresses = await readAddressTextLists(files);
  const folders = [...new Set(files.map((file) => basename(dirname(file))))];
  return versionOf(publishedOn, `per-asset text lists ${folders.join(", ")}`, addresses);
}

function versionOf(publishedOn: string, source: string, read: SanctionedAddress[]): SanctionsListVersion {
  const unique = new Map<string, SanctionedAddress>();
  for (const address of read) unique.set(`${address.ofacAsset}\t${address.address}\t${address.sdnUid ?? ""}`, address);
  const keys = [...unique.keys()].sort();
  const contentHash = createHash("sha256").update(keys.join("\n")).digest("hex");
  return { list: ofacSdnListName, publishedOn, source, contentHash, addresses: keys.map((key) => unique.get(key)!) };
}

function dateOfFolder(files: readonly string[]): string {
  const folders = [...new Set(files.map((file) => basename(dirname(file))))];
  const match = folders.length === 1 ? datedFolder.exec(folders[0]!) : null;
  if (!match) {
    throw new SanctionsListError(
      `The text lists carry no date: put them in one folder named after the publication date (e.g. ofac-2024-09-27), or pass --published YYYY-MM-DD.`,
    );
  }
  return isoDate(folders[0]!, Number(match[1]), Number(match[2]), Number(match[3]));
}

function checkedDate(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new SanctionsListError(`--published ${JSON.stringify(text)} is not a date of the form YYYY-MM-DD.`);
  return isoDate("--published", Number(match[1]), Number(match[2]), Number(match[3]));
}

/** The name of the first element of an XML file, from its first 64 KiB (after the declaration and comments). */
function rootElementOf(file: string): string | undefined {
  const buffer = Buffer.alloc(64 * 1024);
  const descriptor = openSync(file, "r");
  try {
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    const head = buffer
      .subarray(0, read)
      .toString("utf8")
      .replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, "");
    const name = /<([A-Za-z_][\w.:-]*)/.exec(head)?.[1];
    return name?.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
  } finally {
    closeSync(descriptor);
  }
}
