/**
 * Threat: with introspection off, a caller can still map the schema field by field, because
 * graphql-js answers a misspelt field, argument or enum value with "Did you mean ...?" and the real
 * names. graphql-js 16 has no switch for it, so the suggestion is cut from the message instead;
 * the rest ("Cannot query field "x" on type "Y".") names only what the caller sent.
 */
const suggestion = /\s*Did you mean [^?]*\?/g;

export function withoutSuggestions(message: string): string {
  return message.replace(suggestion, "");
}
