/** The client-credentials grant with exactly the form fields of spec 4.3. */
export async function fetchToken(tokenEndpoint: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, grant_type: "client_credentials", client_secret: clientSecret, scope: "openid" }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!body.access_token) throw new Error(`The token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}
