import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import type { AopdConfig } from "../../src/aopd-config.js";
import { startTestAopd, type GraphQLBody, type TestAopd } from "./start-test-aopd.js";
import type { DatabaseDriver } from "./test-database.js";

export interface AopdWithOfficers extends TestAopd {
  /** Posts a GraphQL request as this caller, with an internal token the gateway would have minted. */
  queryAs(identity: Identity, query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: GraphQLBody }>;
  /** The `authorization` header the gateway would send aopd for this caller (for the file routes). */
  authorizationOf(identity: Identity): Promise<string>;
}

/**
 * aopd verifying real internal identity tokens (as behind the gateway), so that each test request
 * can be made by a different person: decisions name their decider from that token.
 */
export async function startAopdWithOfficers(driver: DatabaseDriver, config: Partial<AopdConfig> = {}): Promise<AopdWithOfficers> {
  const key = await generateInternalSigningKey();
  const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
  const aopd = await startTestAopd(driver, { config, authenticate: createInternalTokenVerifier({ audience: "aopd", publicKeys: [key.publicJwk] }) });
  return {
    ...aopd,
    authorizationOf: async (identity) => `Bearer ${await mint(identity, "aopd")}`,
    async queryAs(identity, query, variables = {}) {
      const response = await fetch(aopd.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await mint(identity, "aopd")}` },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLBody };
    },
  };
}
