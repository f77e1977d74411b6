import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { startSubgraphServer, type RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createIdentityDoor, enforceRequiredRoles, type Identity, type InternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";

/** The KYC domain's schema as first published (`kyc:review` required) and after it dropped the role. */
export const kycSchemaFiles = {
  v1: fileURLToPath(new URL("kyc-v1.graphql", import.meta.url)),
  v2: fileURLToPath(new URL("kyc-v2.graphql", import.meta.url)),
};

interface KycContext {
  identity: Identity;
}

/**
 * A small KYC subgraph, a domain this repository does not know: it verifies the gateway's internal
 * token like any subgraph and answers with the roles it received, so a test sees which grants
 * crossed the gateway.
 */
export async function startKycSubgraph(verifier: InternalTokenVerifier, version: keyof typeof kycSchemaFiles = "v1"): Promise<RunningSubgraphServer> {
  const logger = createLogger("kyc", "silent");
  const resolvers = {
    Query: {
      kycCase: (_: unknown, { id }: { id: string }) => ({ id, status: "IN_REVIEW" }),
      kycCases: () => [{ id: "c-1", status: "IN_REVIEW" }],
      kycCallerRoles: (_: unknown, __: unknown, context: unknown) => (context as KycContext).identity.roles,
    },
  };
  const schema = enforceRequiredRoles(buildSubgraphSchema({ typeDefs: parse(readFileSync(kycSchemaFiles[version], "utf8")), resolvers }));
  return startSubgraphServer<KycContext>({
    name: "kyc",
    schema,
    port: 0,
    production: false,
    identity: createIdentityDoor({ subgraph: "kyc", verifier, production: false, logger }),
    createContext: ({ identity }) => ({ identity }),
    checkReady: async () => {},
    logger,
  });
}
