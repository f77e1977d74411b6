import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { GraphQLError, parse } from "graphql";
import { createYoga } from "graphql-yoga";
import { createRemoteJWKSet, jwtVerify } from "jose";

/**
 * The PEP screening subgraph as a team outside this repository writes it: GraphQL Yoga with
 * `@apollo/subgraph`'s `buildSubgraphSchema` (the way Yoga documents a Federation 2 subgraph), and
 * none of this repository's server code. It verifies the gateway's internal token with `jose`
 * alone, exactly as docs/new-subgraph.md tells a team to (the gateway's JWKS, `typ`, `iss`, `aud`),
 * and checks the role in its resolver too: the gateway's check and its own, neither trusted alone.
 *
 * Run as a process of its own: PORT, INTERNAL_JWKS_URL, PEP_SCHEMA_FILE (the schema it serves).
 */

interface Caller {
  client: string;
  roles: string[];
}

const port = Number(process.env.PORT ?? "4010");
const jwks = createRemoteJWKSet(new URL(process.env.INTERNAL_JWKS_URL ?? "http://localhost:4000/.well-known/internal-jwks.json"));
const schemaFile = process.env.PEP_SCHEMA_FILE ?? new URL("pep-v2.graphql", import.meta.url).pathname;

const screenings = new Map([
  ["customer-1", { customerId: "customer-1", listed: true, position: "Minister of Finance", listSource: "EU PEP list" }],
  ["customer-2", { customerId: "customer-2", listed: false, position: null, listSource: null }],
]);
const screeningOf = (customerId: string) => screenings.get(customerId) ?? { customerId, listed: false, position: null, listSource: null };

const unauthenticated = () =>
  new GraphQLError("A valid internal token of the gateway is required.", { extensions: { code: "UNAUTHENTICATED", http: { status: 401 } } });

async function callerOf(request: Request): Promise<Caller> {
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token) throw unauthenticated();
  try {
    const { payload } = await jwtVerify(token, jwks, {
      algorithms: ["ES256"],
      typ: "cg-internal+jwt",
      issuer: "compliance-graph-gateway",
      audience: "pep",
      maxTokenAge: "1h",
    });
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((role): role is string => typeof role === "string") : [];
    return { client: typeof payload.azp === "string" ? payload.azp : "", roles };
  } catch {
    throw unauthenticated();
  }
}

const schema = buildSubgraphSchema([
  {
    typeDefs: parse(readFileSync(schemaFile, "utf8")),
    resolvers: {
      Query: {
        pepScreening: (_: unknown, { customerId }: { customerId: string }, { caller }: { caller: Caller }) => {
          if (!caller.roles.includes("pep:read")) throw new GraphQLError("pep:read is required.", { extensions: { code: "FORBIDDEN" } });
          return screeningOf(customerId);
        },
      },
      PepScreening: {
        __resolveReference: ({ customerId }: { customerId: string }) => screeningOf(customerId),
      },
    } as never,
  },
]);

const yoga = createYoga<{ caller?: Caller }>({
  schema,
  // The gateway's readiness asks every subgraph at /health/ready.
  healthCheckEndpoint: "/health/ready",
  landingPage: false,
  graphiql: false,
  context: async ({ request }) => ({ caller: await callerOf(request) }),
});

const server = createServer(yoga);
server.listen(port, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
