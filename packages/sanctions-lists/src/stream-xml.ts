import { createReadStream } from "node:fs";
import { SaxesParser } from "saxes";
import { SanctionsListError } from "./sanctions-list-error.js";
import { sanctionsListLimits } from "./sanctions-list-limits.js";

/** What a reader of one XML format is told, element by element, with local names (namespaces ignored: OFAC has moved them twice). */
export interface XmlElementHandler {
  open?(name: string, attributes: Readonly<Record<string, string>>, depth: number): void;
  /** The element's own text (its children's excluded), trimmed, once it closes. */
  close?(name: string, text: string, depth: number): void;
}

const maxDepth = 64;

/**
 * Reads an XML file as a stream of elements: saxes is fed the file chunk by chunk, and only the
 * open elements' names and texts are kept, each text cut at `maxTextLength`. So memory stays flat
 * whatever the file's size (OFAC's `sdn_advanced.xml` is over 100 MB); the caller keeps what it
 * wants of each element. A file that is not well-formed XML is refused with the line saxes gives.
 */
export async function streamXml(file: string, handler: XmlElementHandler): Promise<void> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const texts: string[] = [];
  const names: string[] = [];
  let failure: Error | undefined;
  parser.on("error", (error) => {
    failure ??= new SanctionsListError(`${file} is not well-formed XML: ${error.message}`);
  });
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    if (names.length >= maxDepth) {
      failure ??= new SanctionsListError(`${file} nests elements deeper than ${maxDepth}; OFAC's formats nest far less.`);
      return;
    }
    names.push(name);
    texts.push("");
    handler.open?.(name, tag.attributes as Record<string, string>, names.length);
  });
  const addText = (text: string) => {
    const index = texts.length - 1;
    if (index < 0) return;
    const current = texts[index]!;
    if (current.length < sanctionsListLimits.maxTextLength) texts[index] = (current + text).slice(0, sanctionsListLimits.maxTextLength);
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", () => {
    const depth = names.length;
    const name = names.pop();
    const text = texts.pop() ?? "";
    if (name !== undefined) handler.close?.(name, text.trim(), depth);
  });
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      parser.write(chunk);
      if (failure) throw failure;
    }
    parser.close();
  } catch (error) {
    if (error instanceof SanctionsListError) throw error;
    throw failure ?? new SanctionsListError(`${file} could not be read: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (failure) throw failure;
}

function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}
