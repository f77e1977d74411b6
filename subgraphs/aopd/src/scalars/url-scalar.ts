import { GraphQLError, GraphQLScalarType, Kind } from "graphql";

/** A scalar of absolute URLs limited to some schemes; a URL that does not parse is refused on input and output. */
export function urlScalar(name: string, schemes: readonly string[]): GraphQLScalarType<string, string> {
  const check = (value: unknown): string => {
    if (typeof value === "string") {
      try {
        const url = new URL(value);
        if (schemes.includes(url.protocol.slice(0, -1))) return value;
      } catch {
        // Falls through to the error below.
      }
    }
    throw new GraphQLError(`${name} must be an absolute URL with the scheme ${schemes.join(" or ")}; got ${JSON.stringify(value)}.`, {
      extensions: { code: "BAD_USER_INPUT" },
    });
  };
  return new GraphQLScalarType<string, string>({
    name,
    serialize: check,
    parseValue: check,
    parseLiteral: (ast) => check(ast.kind === Kind.STRING ? ast.value : undefined),
  });
}

export const portalUrlScalar = urlScalar("AopdAoppPortalUrl", ["http", "https"]);
export const aoppUriScalar = urlScalar("AopdAoppUri", ["http", "https", "aopp"]);
