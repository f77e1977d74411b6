/**
 * The bearer token the command line sends to the gateway: `GRAPH_TOKEN`, or a client-credentials
 * token for `GRAPH_CLIENT_ID` and `GRAPH_CLIENT_SECRET` from the token endpoint (`GRAPH_TOKEN_URL`,
 * or the one `GRAPH_ISSUER_URL`'s discovery document names), as a pipeline's service account.
 */
export async function graphToken(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<string> {
  if (env.GRAPH_TOKEN) return env.GRAPH_TOKEN;
  const clientId = env.GRAPH_CLIENT_ID;
  const clientSecret = env.GRAPH_CLIENT_SECRET;
  if (!clientId || !clientSecret) throw new Error("Set GRAPH_TOKEN, or GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET (with GRAPH_TOKEN_URL or GRAPH_ISSUER_URL).");
  let tokenUrl = env.GRAPH_TOKEN_URL;
  if (!tokenUrl) {
    const issuer = env.GRAPH_ISSUER_URL;
    if (!issuer) throw new Error("Set GRAPH_TOKEN_URL (the token endpoint) or GRAPH_ISSUER_URL (the OIDC issuer) beside GRAPH_CLIENT_ID.");
    const discovery = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, { signal });
    const document = (await discovery.json().catch(() => ({}))) as { token_endpoint?: string };
    if (!discovery.ok || !document.token_endpoint)
      throw new Error(`The issuer ${issuer} has no token endpoint in its discovery document (HTTP ${discovery.status}).`);
    tokenUrl = document.token_endpoint;
  }
  const response = await fetch(tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
    signal,
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`The token endpoint refused the client ${clientId} (HTTP ${response.status}${body.error ? `, ${body.error}` : ""}).`);
  return body.access_token;
}
