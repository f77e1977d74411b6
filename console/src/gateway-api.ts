import { documentText, type SchemaChecked, type TypedDocument } from "./graphql/graphql.js";
import type { OfficerSession } from "./officer-session.js";

export interface ApiErrorEntry {
  message: string;
  extensions?: { code?: string; field?: string; [key: string]: unknown };
}

/** The API refused: the GraphQL errors as they came, so a form can show each next to its field. */
export class ApiError extends Error {
  constructor(readonly errors: ApiErrorEntry[]) {
    super(errors.map((error) => error.message).join("; "));
  }
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

/**
 * The gateway's public API on this origin, with the officer's bearer token: `/graphql`, and the
 * HTTP routes beside it (media, download). A 401 renews the token once and retries.
 */
export function gatewayApi(session: OfficerSession) {
  async function authorized(input: string, init: RequestInit = {}): Promise<Response> {
    const send = (token: string) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
    const response = await send(await session.accessToken());
    return response.status === 401 ? send(await session.renew()) : response;
  }
  return {
    authorized,
    /**
     * Sends a document typed from the schema (`graphql()` of graphql/graphql.ts): its variables
     * are checked against the operation's, the answer is its result type, and a document that
     * names a field or type the schema does not have is refused by the type check.
     */
    async graphql<Result, Variables>(
      document: TypedDocument<Result, Variables> & SchemaChecked<Result, Variables>,
      ...[variables]: Record<string, never> extends Variables ? [variables?: Variables] : [variables: Variables]
    ): Promise<Result> {
      const response = await authorized("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: documentText(document as TypedDocument<unknown, never>), variables: variables ?? {} }),
      });
      const body = (await response.json()) as { data?: Result; errors?: ApiErrorEntry[] };
      if (body.errors?.length) throw new ApiError(body.errors);
      if (!body.data) throw new ApiError([{ message: `HTTP ${response.status}` }]);
      return body.data;
    },
  };
}

export type GatewayApi = ReturnType<typeof gatewayApi>;
