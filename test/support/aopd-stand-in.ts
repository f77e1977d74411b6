import { readFileSync } from "node:fs";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { createIdentityDoor, enforceRequiredRoles, type InternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startSubgraphServer, type RunningSubgraphServer } from "@compliance-graph/graphql-execution";

export const aopdStandInSchemaFile = new URL("./fixtures/aopd-stand-in.graphql", import.meta.url).pathname;

export const standInProofs = [
  {
    __typename: "AopdSignatureProof",
    id: "proof-1",
    createdAt: "2026-01-01T00:00:00Z",
    address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    customerId: "customer-1",
    xpub: null,
  },
  {
    __typename: "AopdSatoshiProof",
    id: "proof-2",
    createdAt: "2026-01-02T00:00:00Z",
    address: "0x52908400098527886E0F7030069857D2E4169EE7",
    customerId: "customer-2",
    amount: "10000",
  },
];

/**
 * A small aopd-shaped subgraph (the stand-in schema in fixtures/) on a free port, served with the
 * same server kit and identity verification as the real subgraphs.
 */
export async function startAopdStandIn(authenticate: InternalTokenVerifier): Promise<RunningSubgraphServer> {
  const byId = new Map(standInProofs.map((proof) => [proof.id, proof]));
  const schema = enforceRequiredRoles(
    buildSubgraphSchema({
      typeDefs: parse(readFileSync(aopdStandInSchemaFile, "utf8")),
      resolvers: {
        Query: { aopd: () => ({}) },
        Aopd: {
          proofs: (_: unknown, { limit }: { limit: number }) => standInProofs.slice(0, limit),
          proofsAsXlsx: () => Buffer.from("xlsx").toString("base64"),
        },
        AopdProof: {
          __resolveType: (proof: { __typename: string }) => proof.__typename,
          __resolveReference: ({ id }: { id: string }) => byId.get(id),
        },
      } as never,
    }),
  );
  const logger = createLogger("aopd-stand-in", "silent");
  return startSubgraphServer({
    name: "aopd",
    schema,
    port: 0,
    production: false,
    identity: createIdentityDoor({ subgraph: "aopd", verifier: authenticate, production: false, logger }),
    createContext: ({ identity, requestId, logger: requestLogger }) => ({ identity, requestId, logger: requestLogger }),
    checkReady: async () => {},
    logger,
  });
}
