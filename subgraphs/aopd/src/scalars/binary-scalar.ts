import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function parse(value: unknown): Buffer {
  if (typeof value === "string" && base64.test(value)) return Buffer.from(value, "base64");
  throw new GraphQLError("Binary must be base64-encoded text.", { extensions: { code: "BAD_USER_INPUT" } });
}

/** Binary content, base64 on the wire; resolvers return a Buffer or an already encoded string. */
export const binaryScalar = new GraphQLScalarType<Buffer, string>({
  name: "Binary",
  serialize(value) {
    if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString("base64");
    if (typeof value === "string" && base64.test(value)) return value;
    throw new GraphQLError("Binary cannot represent this value.");
  },
  parseValue: parse,
  parseLiteral(ast) {
    return parse(ast.kind === Kind.STRING ? ast.value : undefined);
  },
});
