/**
 * PostgreSQL rejects a pattern that ends in a lone escape character with an error that would
 * surface as a server fault; checking here turns it into a clear input error, and the length cap
 * bounds the matching work one request can ask for.
 */
export function validatePattern(pattern: string, maxLength: number): string | undefined {
  if (pattern.length > maxLength) return `the pattern has ${pattern.length} characters; at most ${maxLength} are allowed.`;
  let escaped = false;
  for (const character of pattern) escaped = !escaped && character === "\\";
  if (escaped) return "the pattern ends with an escape character (\\); escape it as \\\\ to match a backslash.";
  return undefined;
}

/** Whether an (already validated) pattern has an unescaped `%` or `_`. */
export function hasWildcard(pattern: string): boolean {
  let escaped = false;
  for (const character of pattern) {
    if (escaped) escaped = false;
    else if (character === "\\") escaped = true;
    else if (character === "%" || character === "_") return true;
  }
  return false;
}

/** The literal text a wildcard-free pattern matches. */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/**
 * The same matching as PostgreSQL's `LIKE`/`ILIKE` with the default escape and the C collation
 * (ASCII case folding), for code that must decide a match outside the database.
 */
export function matchesPattern(value: string, pattern: string, caseInsensitive: boolean): boolean {
  const fold = (text: string) => (caseInsensitive ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text);
  let source = "^";
  let escaped = false;
  for (const character of fold(pattern)) {
    if (escaped) {
      source += escapeRegExp(character);
      escaped = false;
    } else if (character === "\\") escaped = true;
    else if (character === "%") source += "[\\s\\S]*";
    else if (character === "_") source += "[\\s\\S]";
    else source += escapeRegExp(character);
  }
  return new RegExp(`${source}$`, "u").test(fold(value));
}

function escapeRegExp(character: string): string {
  return character.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
