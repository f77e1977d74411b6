import { readFileSync } from "node:fs";
import { ApolloGateway, RemoteGraphQLDataSource } from "@apollo/gateway";
import { ApolloServer } from "@apollo/server";
import { startStandaloneServer } from "@apollo/server/standalone";

/**
 * Stock `@apollo/gateway` on `@apollo/server`'s standalone server, as its documentation sets it
 * up, for the gateway comparison. Nothing is tuned: the default fetcher, the default plugins. The
 * only addition is the static per-subgraph `Authorization` header the comparison gives every
 * gateway that does not mint identities itself.
 *
 * - `PORT`: where it listens (on 127.0.0.1).
 * - `SUPERGRAPH_PATH`: the composed supergraph SDL.
 * - `SUBGRAPH_AUTHORIZATION`: JSON object from subgraph name to the `Authorization` value.
 */
const supergraphSdl = readFileSync(process.env.SUPERGRAPH_PATH ?? "supergraph.graphql", "utf8");
const authorization = JSON.parse(process.env.SUBGRAPH_AUTHORIZATION ?? "{}") as Record<string, string>;

class StaticHeaderDataSource extends RemoteGraphQLDataSource {
  constructor(
    private readonly header: string | undefined,
    url: string | undefined,
  ) {
    super({ url });
  }

  override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource["willSendRequest"]>>[0]): void {
    if (this.header) request.http?.headers.set("authorization", this.header);
  }
}

const gateway = new ApolloGateway({
  supergraphSdl,
  buildService: ({ name, url }) => new StaticHeaderDataSource(authorization[name], url),
});
const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, { listen: { port: Number(process.env.PORT ?? 4000), host: "127.0.0.1" } });
console.log(`stock @apollo/gateway listening at ${url}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
}
