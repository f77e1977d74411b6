/** A plain character-class scan, cheaper than the pattern below for the usual text that needs nothing. */
const needsEscape = /[&<>\r_]/;
const escapable = /[&<>\r]|_(?=[xX][0-9A-Fa-f]{4}_)/g;

const replacements: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  // A raw CR would reach the reader as LF (XML normalises line ends); a character reference is
  // exempt from that and, unlike OOXML's `_x000D_`, every XML parser decodes it.
  "\r": "&#13;",
  // Excel decodes `_xHHHH_` in cell text into the character HHHH (SheetJS also `_XHHHH_`), so
  // text that holds such a form itself has its underscore escaped (ECMA-376 22.4.2.4). Excel,
  // SheetJS, exceljs and LibreOffice (checked by test/export/xlsx-libreoffice) then show the text
  // as written. See docs/xlsx-export.md.
  _: "_x005F_",
};

/**
 * Cell text (already made writable by `cellText`) as the content of a worksheet's `<t>` element.
 * The lookahead leaves the closing underscore of one form free to open the next
 * (`_x0041_x0042_`), so that both are escaped.
 */
export function worksheetText(text: string): string {
  return needsEscape.test(text) ? text.replace(escapable, (found) => replacements[found] as string) : text;
}
