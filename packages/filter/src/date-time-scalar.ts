import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

// RFC 3339 requires a date, a time and an offset; a bare date or a local time is ambiguous.
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function parse(value: unknown): Date {
  if (typeof value !== "string" || !rfc3339.test(value)) {
    throw new GraphQLError(`DateTime must be an RFC 3339 timestamp with an offset, for example "2026-05-01T12:00:00Z"; got ${JSON.stringify(value)}.`, {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`${JSON.stringify(value)} is not a real instant.`, { extensions: { code: "BAD_USER_INPUT" } });
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
