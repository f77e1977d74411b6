import type { IncomingMessage, ServerResponse } from "node:http";
import { HeaderMap, type ApolloServer, type BaseContext } from "@apollo/server";

/** Hands a Node request (its body already read) to Apollo Server and writes Apollo's answer. */
export async function executeApolloRequest<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: () => Promise<TContext>,
): Promise<void> {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const url = new URL(request.url ?? "/", "http://localhost");
  const result = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: request.method ?? "GET", headers, search: url.search, body },
    context,
  });
  response.statusCode = result.status ?? 200;
  for (const [key, value] of result.headers) response.setHeader(key, value);
  if (result.body.kind === "complete") {
    response.end(result.body.string);
    return;
  }
  for await (const chunk of result.body.asyncIterator) response.write(chunk);
  response.end();
}
