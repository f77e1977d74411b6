/** The parts of an issuer's OIDC discovery document the gateway uses. */
export interface IssuerMetadata {
  issuer: string;
  jwksUri: string;
}

/**
 * OIDC discovery (OpenID Connect Discovery 1.0 section 4): fetches
 * `<issuer>/.well-known/openid-configuration` and checks that the document names the same issuer,
 * so a misconfigured or spoofed discovery endpoint cannot point the gateway at another issuer's
 * keys.
 */
export async function discoverIssuer(issuer: string, timeoutMs = 5_000): Promise<IssuerMetadata> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`OIDC discovery at ${url} answered HTTP ${response.status}.`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) {
    throw new Error(`OIDC discovery at ${url} names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)}.`);
  }
  if (typeof document.jwks_uri !== "string") throw new Error(`OIDC discovery at ${url} has no jwks_uri.`);
  return { issuer, jwksUri: document.jwks_uri };
}
