/**
 * What tells an access token from the other JWTs an identity provider signs with the same key.
 * Threat: an ID token (or another token of the issuer) whose `aud` happens to match the API's
 * audience, presented as a bearer token. ID tokens are handed to browsers and apps for login, are
 * logged and cached with less care, and were never meant to grant access to an API; with Keycloak
 * an ID token's `aud` is the client it was issued to, so an API client or an audience mapper named
 * like `OIDC_AUDIENCE` makes one pass every other check. A token is accepted only when it carries
 * one of the configured markers:
 * - `header:typ=at+jwt`: RFC 9068's JWT access token type in the protected header (compared as a
 *   media type: case-insensitive, `application/` optional), which `oidc-provider` sets;
 * - `claim:typ=Bearer`: Keycloak's access tokens (its ID tokens carry `"typ": "ID"`, its refresh
 *   tokens `"Refresh"`);
 * - `claim:<name>=<value>`, `header:<name>=<value>`: another provider's marker (AWS Cognito's
 *   `claim:token_use=access`);
 * - `none` alone: no check, for providers that set no marker at all (Entra ID); it gives up this
 *   protection, and the gateway logs a warning at start.
 */
export type AccessTokenMarker = { place: "header" | "claim"; name: string; value: string };

/** `OIDC_ACCESS_TOKEN_MARKERS`' default: RFC 9068's `typ` header, or Keycloak's `typ` claim. */
export const defaultAccessTokenMarkers: readonly AccessTokenMarker[] = [
  { place: "header", name: "typ", value: "at+jwt" },
  { place: "claim", name: "typ", value: "Bearer" },
];

/** `OIDC_ACCESS_TOKEN_MARKERS`' syntax: markers as above, comma-separated, or `none`. An empty list is `none`. */
export function parseAccessTokenMarkers(text: string): AccessTokenMarker[] {
  const parts = text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 1 && parts[0] === "none") return [];
  const markers = parts.map((part): AccessTokenMarker => {
    const match = /^(header|claim):([^=\s]+)=(\S+)$/.exec(part);
    if (!match) {
      throw new Error(
        `OIDC_ACCESS_TOKEN_MARKERS: ${JSON.stringify(part)} is not a marker; use header:<name>=<value> or claim:<name>=<value> (comma-separated), or none alone.`,
      );
    }
    return { place: match[1] as AccessTokenMarker["place"], name: match[2] as string, value: match[3] as string };
  });
  if (markers.length === 0) throw new Error('OIDC_ACCESS_TOKEN_MARKERS names no marker; to check none, say "none".');
  return markers;
}

/** A media type as RFC 7515 section 4.1.9 compares `typ`: case-insensitive, with `application/` optional. */
function mediaType(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith("application/") ? lower.slice("application/".length) : lower;
}

/** True when the token carries one of `markers` (always, for no markers). */
export function hasAccessTokenMarker(header: Record<string, unknown>, payload: Record<string, unknown>, markers: readonly AccessTokenMarker[]): boolean {
  if (markers.length === 0) return true;
  return markers.some((marker) => {
    const found = (marker.place === "header" ? header : payload)[marker.name];
    if (typeof found !== "string") return false;
    return marker.place === "header" && marker.name === "typ" ? mediaType(found) === mediaType(marker.value) : found === marker.value;
  });
}
