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
 * Whether a request failed because it was abandoned (the screen that asked was left, or a newer
 * read of the same screen superseded it): nothing went wrong, so nothing is shown to the officer.
 */
export function wasAbandoned(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Whether a document is a query: the only operations `within`'s signals abort. */
function isQuery(document: TypedDocument<unknown, never>): boolean {
  return document.definitions.some((definition) => definition.kind === "OperationDefinition" && definition.operation === "query");
}

/**
 * The gateway's public API on this origin, with the officer's bearer token: `/graphql`, and the
 * HTTP routes beside it (media, download). A 401 renews the token once and retries.
 *
 * `abandonReadsOn`: signals that abort the reads in flight (queries, and GET routes such as the
 * media file) when they fire, so a screen the officer left or a read a newer one superseded stops
 * loading instead of finishing for nothing. An action (a mutation, a POST) is never aborted by
 * them: cut off half-way, the officer could not tell whether it happened.
 */
export function gatewayApi(session: OfficerSession, abandonReadsOn: readonly AbortSignal[] = []) {
  async function authorized(input: string, init: RequestInit = {}): Promise<Response> {
    const reads = !init.method || init.method === "GET" || init.method === "HEAD";
    const signals = [...(reads ? abandonReadsOn : []), ...(init.signal ? [init.signal] : [])];
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    const send = (token: string) =>
      fetch(input, { ...init, signal, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
    const response = await send(await session.accessToken());
    return response.status === 401 ? send(await session.renew()) : response;
  }
  return {
    authorized,
    /** The same API, whose reads are also abandoned when `signal` fires (see `abandonReadsOn`). */
    within: (signal: AbortSignal) => gatewayApi(session, [...abandonReadsOn, signal]),
    /**
     * Sends a document typed from the schema (`graphql()` of graphql/graphql.ts): its variables
     * are checked against the operation's, the answer is its result type, and a document that
     * names a field or type the schema does not have is refused by the type check.
     */
    async graphql<Result, Variables>(
      document: TypedDocument<Result, Variables> & SchemaChecked<Result, Variables>,
      ...[variables]: Record<string, never> extends Variables ? [variables?: Variables] : [variables: Variables]
    ): Promise<Result> {
      const sent = document as TypedDocument<unknown, never>;
      // A query is a read, though it is POSTed: the signals abort it as they abort a GET.
      const signal = isQuery(sent) && abandonReadsOn.length ? AbortSignal.any([...abandonReadsOn]) : undefined;
      const response = await authorized("/graphql", {
        method: "POST",
        ...(signal ? { signal } : {}),
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: documentText(sent), variables: variables ?? {} }),
      });
      const body = (await response.json()) as { data?: Result; errors?: ApiErrorEntry[] };
      if (body.errors?.length) throw new ApiError(body.errors);
      if (!body.data) throw new ApiError([{ message: `HTTP ${response.status}` }]);
      return body.data;
    },
  };
}

export type GatewayApi = ReturnType<typeof gatewayApi>;
