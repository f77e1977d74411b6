import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startRegistry, usageReporterClient, type RunningRegistry } from "../../src/index.js";

export interface TestRegistry {
  registry: RunningRegistry;
  databaseUrl: string;
  /** An internal token for the registry, as the gateway mints it for a caller. */
  tokenFor(identity: Identity): Promise<string>;
  /** A JSON call with the identity's internal token. */
  call(identity: Identity | undefined, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

/** A publisher's identity: `dev-api-client`'s service account, with the registry's roles. */
export const publisher: Identity = { subject: "service-account-dev-api-client", client: "dev-api-client", roles: ["schema:publish", "schema:admin"] };
/** Another team's pipeline: may publish, owns nothing yet. */
export const otherTeam: Identity = { subject: "service-account-kyc-pipeline", client: "kyc-pipeline", roles: ["schema:publish"] };
/** The gateway reporting usage. */
export const gateway: Identity = { subject: usageReporterClient, client: usageReporterClient, roles: [] };

/** A registry on a database of its own on the test PostgreSQL server, verifying internal tokens of a key made here. */
export async function startTestRegistry(label: string, config: Record<string, unknown> = {}): Promise<TestRegistry> {
  const databaseUrl = await createTestDatabase(label);
  const internalKey = await generateInternalSigningKey();
  const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
  const registry = await startRegistry({
    config: { port: 0, databaseUrl, ...config },
    authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }),
  });
  const tokenFor = (identity: Identity) => mint(identity, "registry");
  return {
    registry,
    databaseUrl,
    tokenFor,
    async call(identity, method, path, body) {
      const headers: Record<string, string> = {};
      if (identity) headers.authorization = `Bearer ${await tokenFor(identity)}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${registry.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
    },
  };
}
