import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

const digits = /^(0|[1-9][0-9]{0,77})$/;

function invalid(value: unknown): GraphQLError {
  return new GraphQLError(
    `Amount must be a string of decimal digits (at most 78) or a non-negative safe integer, in the asset's lowest denomination; got ${JSON.stringify(value)}.`,
    { extensions: { code: "BAD_USER_INPUT" } },
  );
}

/** Parses an amount without ever passing through a float, so no digit of a large amount is lost. */
function parse(value: unknown): string {
  if (typeof value === "string" && digits.test(value)) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw invalid(value);
}

export const amountScalar = new GraphQLScalarType<string, string>({
  name: "Amount",
  serialize(value) {
    const text = typeof value === "bigint" ? value.toString() : String(value);
    if (!digits.test(text)) throw new GraphQLError("Amount cannot represent a value that is not a non-negative integer.");
    return text;
  },
  parseValue: parse,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return parse(ast.value);
    if (ast.kind === Kind.INT) return parse(Number.isSafeInteger(Number(ast.value)) ? Number(ast.value) : ast.value);
    throw invalid(ast.kind);
  },
});
