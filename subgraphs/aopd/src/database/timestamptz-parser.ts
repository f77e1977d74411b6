import pg from "pg";

const timestamptzOid = 1184;
const defaultParser = pg.types.getTypeParser(timestamptzOid, "text") as (text: string) => Date | number | string;

const digitsAt = (text: string, from: number, to: number): number => {
  let value = 0;
  for (let index = from; index < to; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
};

/**
 * Reads a `timestamptz` as PostgreSQL writes it in its default ISO style ("2026-03-01
 * 12:34:56.123456+00", "+05:30" in other time zones) into a Date, about four times faster than
 * `pg`'s general parser: a page of proofs parses one to four per row, and an export or a feed
 * many more. Fractions are cut to milliseconds, as Date and the general parser both do. Anything
 * else (another DateStyle, BC years, years past 9999, `infinity`, offsets with seconds) goes to
 * the general parser.
 */
export function parseTimestamptz(text: string): Date | number | string {
  const length = text.length;
  if (
    length < 22 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  ) {
    return defaultParser(text);
  }
  let index = 19;
  let milliseconds = 0;
  if (text.charCodeAt(index) === 46) {
    let digits = 0;
    for (index += 1; index < length; index += 1) {
      const digit = text.charCodeAt(index) - 48;
      if (digit < 0 || digit > 9) break;
      if (digits < 3) milliseconds = milliseconds * 10 + digit;
      digits += 1;
    }
    milliseconds *= 10 ** Math.max(0, 3 - digits);
  }
  const sign = text.charCodeAt(index);
  const offsetLength = length - index;
  if ((sign !== 43 && sign !== 45) || (offsetLength !== 3 && !(offsetLength === 6 && text.charCodeAt(index + 3) === 58))) return defaultParser(text);
  const offsetMinutes = digitsAt(text, index + 1, index + 3) * 60 + (offsetLength === 6 ? digitsAt(text, index + 4, index + 6) : 0);
  const utc = Date.UTC(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 7) - 1,
    digitsAt(text, 8, 10),
    digitsAt(text, 11, 13),
    digitsAt(text, 14, 16),
    digitsAt(text, 17, 19),
    milliseconds,
  );
  // Years 0 to 99 would be read by Date.UTC as 1900 to 1999.
  if (Number.isNaN(utc) || Number.isNaN(offsetMinutes) || (text.charCodeAt(0) === 48 && text.charCodeAt(1) === 48)) return defaultParser(text);
  return new Date(utc - (sign === 45 ? -1 : 1) * offsetMinutes * 60_000);
}

/** `pg`'s type parsers with `parseTimestamptz` for text `timestamptz` values; for a pool's `types` option. */
export const proofDatabaseTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === timestamptzOid && format !== "binary" ? parseTimestamptz : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};
