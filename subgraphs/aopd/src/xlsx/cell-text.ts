/**
 * The most characters (UTF-16 code units, as Excel counts them) one cell may hold. Excel opens a
 * longer cell only after a "repair" that drops data, so the export cuts text to this length.
 */
export const maxCellCharacters = 32_767;

/** Ends a cut cell, so that a reader sees that text is missing rather than a silently shorter value. */
export const truncationMarker = "… [truncated]";

/** Stands in for a character no XML 1.0 document can carry, so that a reader sees that one was there. */
export const unwritableCharacterSubstitute = "\ufffd";

/**
 * Characters XML 1.0 cannot carry at all: the C0 controls other than tab, line feed and carriage
 * return, U+FFFE and U+FFFF, and halves of surrogate pairs without their other half (which have no
 * UTF-8 form).
 */
// eslint-disable-next-line no-control-regex
const unwritable = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// eslint-disable-next-line no-control-regex
const mayBeUnwritable = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

/**
 * What every reader shows in the cell for `value`.
 *
 * Cut to {@link maxCellCharacters}: the end becomes {@link truncationMarker}, and a surrogate pair
 * is never split.
 *
 * Characters XML cannot carry become {@link unwritableCharacterSubstitute}. OOXML's own escape for
 * them (`_xHHHH_`) is decoded by some readers and shown literally by others (LibreOffice has done
 * both), and the character itself is invisible where it is decoded; a visible substitute reads the
 * same everywhere, and these characters do not occur in addresses, ids or signatures. Carriage
 * returns are kept: the worksheet writes them as character references (see `worksheetText`).
 */
export function cellText(value: string): string {
  const cut = cutCellText(value);
  // A plain character-class scan first: almost no proof text needs the replacement, and this runs for every cell.
  return mayBeUnwritable.test(cut) ? cut.replace(unwritable, unwritableCharacterSubstitute) : cut;
}

function cutCellText(value: string): string {
  if (value.length <= maxCellCharacters) return value;
  let end = maxCellCharacters - truncationMarker.length;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return value.slice(0, end) + truncationMarker;
}
