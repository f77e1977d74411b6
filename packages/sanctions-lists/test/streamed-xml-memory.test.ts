import { execFile } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(join(tmpdir(), "sdn-large-"));
const entries = 250_000;

/** An sdn.xml of about 110 MB: every entry with two ordinary ids, one in a hundred with an address. */
async function writeLargeSdnXml(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", () => resolve())));
  await write(`<?xml version="1.0"?><sdnList><publshInformation><Publish_Date>09/27/2024</Publish_Date></publshInformation>`);
  for (let i = 0; i < entries; i += 1) {
    const address =
      i % 100 === 0 ? `<id><uid>${i}3</uid><idType>Digital Currency Address - XBT</idType><idNumber>1Addr${i}xxxxxxxxxxxxxxxxxxxxx</idNumber></id>` : "";
    await write(
      `<sdnEntry><uid>${i}</uid><lastName>EXAMPLE ENTITY NUMBER ${i} WITH A LONG NAME</lastName><sdnType>Entity</sdnType>` +
        `<idList><id><uid>${i}1</uid><idType>Passport</idType><idNumber>P${i}</idNumber></id><id><uid>${i}2</uid><idType>Registration Number</idType><idNumber>R${i}</idNumber></id>${address}</idList>` +
        `<addressList><address><uid>${i}4</uid><city>Somewhere</city><country>Nowhere</country></address></addressList></sdnEntry>`,
    );
  }
  await write("</sdnList>");
  await new Promise((resolve) => out.end(resolve));
}

describe("reading a large OFAC XML file", () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("keeps memory flat: a 110 MB sdn.xml is read by a process whose heap may not pass 48 MB", { timeout: 180_000 }, async () => {
    const file = join(folder, "sdn.xml");
    await writeLargeSdnXml(file);
    const reader = new URL("../src/index.ts", import.meta.url).pathname;
    const script = `const { readSanctionsList } = await import(${JSON.stringify(reader)}); const v = await readSanctionsList([${JSON.stringify(file)}]); console.log(JSON.stringify({ addresses: v.addresses.length, publishedOn: v.publishedOn }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--max-old-space-size=48", "--import", "tsx", "--input-type=module", "-e", script], {
      timeout: 170_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual({ addresses: entries / 100, publishedOn: "2024-09-27" });
  });
});
