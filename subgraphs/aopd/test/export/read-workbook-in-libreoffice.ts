import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { SaxesParser } from "saxes";

/** A cell as LibreOffice Calc holds it after opening the file: the text it shows (a date in its number format), and its value type. */
export interface LibreOfficeCell {
  text: string;
  /** `string`, `date`, `float`, ...: LibreOffice's value type (`office:value-type`). */
  type: string;
  formula: string | undefined;
}

export interface LibreOfficeSheet {
  name: string;
  /** Rows top to bottom, each cell left to right, up to the last cell LibreOffice keeps in the row; null where it has none. */
  rows: (LibreOfficeCell | null)[][];
}

/** Debian's `libreoffice-calc-nogui` puts it here; `.ci/run` installs it when missing. */
export const sofficePath = process.env.SOFFICE_PATH ?? "/usr/bin/soffice";

/**
 * Opens an XLSX file in LibreOffice Calc (headless) and returns what it read: the file is
 * converted to a flat OpenDocument spreadsheet, whose XML holds each cell's text exactly as
 * LibreOffice shows it. A separate profile per call keeps parallel calls from sharing one.
 */
export async function readWorkbookInLibreOffice(file: Buffer): Promise<LibreOfficeSheet[]> {
  const folder = await mkdtemp(join(tmpdir(), "aopd-libreoffice-"));
  try {
    await writeFile(join(folder, "export.xlsx"), file);
    await promisify(execFile)(
      sofficePath,
      [
        `-env:UserInstallation=${pathToFileURL(join(folder, "profile")).href}`,
        "--headless",
        "--convert-to",
        "fods",
        "--outdir",
        folder,
        join(folder, "export.xlsx"),
      ],
      { timeout: 120_000 },
    );
    return parseFlatSpreadsheet(await readFile(join(folder, "export.fods"), "utf8"));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The sheets of a flat OpenDocument spreadsheet (`.fods`): paragraphs join with a line feed, `text:s` and `text:tab` become their characters. */
function parseFlatSpreadsheet(xml: string): LibreOfficeSheet[] {
  const sheets: LibreOfficeSheet[] = [];
  let row: (LibreOfficeCell | null)[] | undefined;
  let rowRepeats = 1;
  let cell: LibreOfficeCell | undefined;
  let cellRepeats = 1;
  let paragraphs = 0;
  /** Text counts only inside a paragraph: LibreOffice indents its XML with white space between elements. */
  let inParagraph = false;
  const parser = new SaxesParser();
  parser.on("opentag", (tag) => {
    const attribute = (name: string) => tag.attributes[name] as string | undefined;
    switch (tag.name) {
      case "table:table":
        sheets.push({ name: attribute("table:name") ?? "", rows: [] });
        break;
      case "table:table-row":
        row = [];
        rowRepeats = Number(attribute("table:number-rows-repeated") ?? 1);
        break;
      case "table:table-cell":
      case "table:covered-table-cell":
        cell = { text: "", type: attribute("office:value-type") ?? "", formula: attribute("table:formula") };
        cellRepeats = Number(attribute("table:number-columns-repeated") ?? 1);
        paragraphs = 0;
        break;
      case "text:p":
        if (cell && paragraphs++ > 0) cell.text += "\n";
        inParagraph = true;
        break;
      case "text:s":
        if (cell) cell.text += " ".repeat(Number(attribute("text:c") ?? 1));
        break;
      case "text:tab":
        if (cell) cell.text += "\t";
        break;
      case "text:line-break":
        if (cell) cell.text += "\n";
        break;
    }
  });
  parser.on("text", (text) => {
    if (cell && inParagraph) cell.text += text;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "text:p") inParagraph = false;
    if ((tag.name === "table:table-cell" || tag.name === "table:covered-table-cell") && row && cell) {
      // LibreOffice writes the empty rest of a row as one repeated empty cell; it holds nothing.
      const empty = cell.type === "" && cell.text === "";
      for (let index = 0; index < cellRepeats; index += 1) row.push(empty ? null : cell);
      cell = undefined;
    } else if (tag.name === "table:table-row" && row) {
      while (row.length > 0 && row[row.length - 1] === null) row.pop();
      const sheet = sheets[sheets.length - 1] as LibreOfficeSheet;
      // Empty rows are not kept: below the data they come as one row repeated about a million times.
      if (row.length > 0) for (let index = 0; index < rowRepeats; index += 1) sheet.rows.push(row);
      row = undefined;
    }
  });
  parser.write(xml).close();
  return sheets;
}
