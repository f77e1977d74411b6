import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

/**
 * Whether text is canonical base64 (padded, standard alphabet). A loop rather than a regular
 * expression: exports are hundreds of megabytes of base64, on which a regex with a repeated group
 * overflows V8's backtracking stack.
 */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  for (let i = 0; i < text.length - padding; i += 1) {
    const c = text.charCodeAt(i);
    const valid = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!valid) return false;
  }
  return true;
}

function parse(value: unknown): Buffer {
  if (typeof value === "string" && isBase64(value)) return Buffer.from(value, "base64");
  throw new GraphQLError("Binary must be base64-encoded text.", { extensions: { code: "BAD_USER_INPUT" } });
}

/** Binary content, base64 on the wire; resolvers return a Buffer or an already encoded string. */
export const binaryScalar = new GraphQLScalarType<Buffer, string>({
  name: "Binary",
  serialize(value) {
    if (Buffer.isBuffer(value)) return value.toString("base64");
    if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    if (typeof value === "string" && isBase64(value)) return value;
    throw new GraphQLError("Binary cannot represent this value.");
  },
  parseValue: parse,
  parseLiteral(ast) {
    return parse(ast.kind === Kind.STRING ? ast.value : undefined);
  },
});
