import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

// RFC 3339 requires a date, a time and an offset; a bare date or a local time is ambiguous.
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

// PostgreSQL's timestamps start at 4713 BC but have no year 0, and JavaScript writes years past
// 9999 as "+010000": both would reach the database as values it refuses (an internal error), so
// instants are kept within the years 0001 to 9999 in UTC.
const earliest = new Date("0001-01-01T00:00:00Z").getTime();
const latest = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function isRealDateAndTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

function parse(value: unknown): Date {
  const match = typeof value === "string" ? rfc3339.exec(value) : null;
  if (match === null) {
    throw new GraphQLError(`DateTime must be an RFC 3339 timestamp with an offset, for example "2026-05-01T12:00:00Z"; got ${JSON.stringify(value)}.`, {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  const date = new Date(value as string);
  if (!isRealDateAndTime(match) || Number.isNaN(date.getTime()) || date.getTime() < earliest || date.getTime() > latest) {
    throw new GraphQLError(`DateTime must be a real instant between the years 0001 and 9999 (UTC); got ${JSON.stringify(value)}.`, {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  return date;
}

export const dateTimeScalar = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  description: "An RFC 3339 timestamp; returned in UTC with millisecond precision.",
  serialize(value) {
    const date = value instanceof Date ? value : new Date(value as string);
    if (Number.isNaN(date.getTime())) throw new GraphQLError("DateTime cannot represent an invalid date.");
    return date.toISOString();
  },
  parseValue: parse,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("DateTime must be a string.", { extensions: { code: "BAD_USER_INPUT" } });
    return parse(ast.value);
  },
});
