/** A GraphQL answer as it arrives over HTTP. */
export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** POSTs a query with the given bearer token (none when undefined). */
export async function postGraphQL(
  url: string,
  query: string,
  token: string | undefined,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: GraphQLBody }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLBody };
}
