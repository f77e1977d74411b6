import type { IncomingMessage, ServerResponse } from "node:http";
import { HeaderMap, type ApolloServer, type BaseContext } from "@apollo/server";

/** An HTTP answer to a GraphQL request, its body encoded once: written as it is, or handed to callers sharing it. */
export interface GraphQLAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/**
 * Hands a Node request (its body already read) to Apollo Server and returns Apollo's answer with
 * its body as bytes. The body is encoded to UTF-8 here, once, so that writing it needs neither
 * `Buffer.byteLength` nor a second encoding (`response.end(string)` does both).
 */
export async function answerApolloRequest<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  request: IncomingMessage,
  body: unknown,
  context: () => Promise<TContext>,
): Promise<GraphQLAnswer> {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  const result = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: request.method ?? "GET", headers, search: query === -1 ? "" : url.slice(query), body },
    context,
  });
  let bytes: Buffer;
  if (result.body.kind === "complete") {
    bytes = Buffer.from(result.body.string);
  } else {
    // Incremental delivery (@defer): collected, since nothing this project serves streams.
    const chunks: Buffer[] = [];
    for await (const chunk of result.body.asyncIterator) chunks.push(Buffer.from(chunk));
    bytes = Buffer.concat(chunks);
  }
  return { status: result.status ?? 200, headers: [...result.headers], body: bytes };
}

/** Writes an answer with its length known up front. */
export function writeGraphQLAnswer(response: ServerResponse, answer: GraphQLAnswer): void {
  response.statusCode = answer.status;
  for (const [key, value] of answer.headers) response.setHeader(key, value);
  response.setHeader("content-length", answer.body.length);
  response.end(answer.body);
}

/** Hands a Node request (its body already read) to Apollo Server and writes Apollo's answer. */
export async function executeApolloRequest<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: () => Promise<TContext>,
): Promise<void> {
  writeGraphQLAnswer(response, await answerApolloRequest(apollo, request, body, context));
}
