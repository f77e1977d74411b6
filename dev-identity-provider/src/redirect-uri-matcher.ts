/**
 * Keycloak's redirect URI rule for a client's `redirectUris`: an exact URI, or a prefix ending in
 * `*`. The development provider serves on whatever base URL it is given (`PORT`,
 * `PUBLIC_BASE_URL`), so each pattern is also accepted on that base URL's origin: the realm file
 * says `http://localhost:4000/*` and `npm start` on port 4100 still lets its console sign in.
 * Nothing else is accepted, so the code cannot be sent to another site (the open redirect an
 * authorization server must refuse).
 */
export function redirectUriMatcher(patterns: readonly string[], baseUrl: string): (uri: string) => boolean {
  const origin = new URL(baseUrl).origin;
  const expanded = patterns.flatMap((pattern) => {
    const parsed = parse(pattern.replace(/\*$/, ""));
    if (!parsed) return [];
    const rest = pattern.slice(parsed.origin.length);
    return [pattern, `${origin}${rest}`];
  });
  return (uri) => {
    const parsed = parse(uri);
    // A fragment may not be part of a redirect URI (RFC 6749 3.1.2), and no credentials in it.
    if (!parsed || parsed.hash || parsed.username || parsed.password) return false;
    return expanded.some((pattern) => (pattern.endsWith("*") ? uri.startsWith(pattern.slice(0, -1)) : uri === pattern));
  };
}

// URL.parse is Node 22's; Node 20 is supported too.
function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
