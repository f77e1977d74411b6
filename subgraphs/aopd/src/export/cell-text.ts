/**
 * The most characters (UTF-16 code units, as Excel counts them) one cell may hold. Excel opens a
 * longer cell only after a "repair" that drops data, so the export cuts text to this length.
 */
export const maxCellCharacters = 32_767;

/** Ends a cut cell, so that a reader sees that text is missing rather than a silently shorter value. */
export const truncationMarker = "… [truncated]";

/** Characters XML 1.0 cannot carry (or, for CR, carries only as LF), which OOXML writes as `_xHHHH_`. */
// eslint-disable-next-line no-control-regex
const unwritable = /[\u0000-\u0008\u000b\u000c\u000d\u000e-\u001f\u007f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/g;

/**
 * Text as it must go into a worksheet so that Excel and other readers show exactly the original.
 *
 * Cut to {@link maxCellCharacters}: the end becomes {@link truncationMarker}, and a surrogate pair
 * is never split (which would leave an unpaired half that XML cannot carry).
 *
 * Escaped the OOXML way (ECMA-376 `ST_Xstring`): exceljs silently drops control characters and
 * passes CR through, which an XML parser turns into LF, so both become `_xHHHH_`; and a literal
 * `_xHHHH_` in the data would be decoded by Excel into another character, so its underscore is
 * escaped as `_x005F_`.
 */
export function cellText(value: string): string {
  return visibleCellText(value).replace(unwritable, escapeCharacter);
}

/** What a reader sees in the cell for `value`: the text, cut when too long. */
export function visibleCellText(value: string): string {
  if (value.length <= maxCellCharacters) return value;
  let end = maxCellCharacters - truncationMarker.length;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return value.slice(0, end) + truncationMarker;
}

function escapeCharacter(character: string): string {
  return `_x${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;
}
