import { createIdentityDoor, type Identity, type InternalTokenVerifier } from "@compliance-graph/identity";
import { createHttpServerShell, createLogger, startRepeatingJob, type Logger } from "@compliance-graph/process-shell";
import type { JWK } from "jose";
import { sql } from "kysely";
import { openRegistryDatabase } from "./database/open-registry-database.js";
import { registryRoutes } from "./http/registry-routes.js";
import type { RegistryContext } from "./registry-context.js";
import { registryRoles } from "./registry-roles.js";
import { registryConfigFromEnv, type RegistryConfig } from "./registry-config.js";
import { registrySigningKeyFrom, type RegistrySigningKey } from "./signing/registry-signing-key.js";
import { pruneUsage } from "./usage/usage-store.js";

export interface StartRegistryOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<RegistryConfig>;
  /** Verifies the gateway's internal token (audience `registry`); required unless `insecureDevelopmentIdentity`. */
  authenticate?: InternalTokenVerifier;
  /** `INSECURE_DEVELOPMENT_IDENTITY`: every caller a developer with every role (see `createIdentityDoor`). @default false */
  insecureDevelopmentIdentity?: boolean;
  logger?: Logger;
}

export interface RunningRegistry {
  /** `http://host:port`: the base URL of `/supergraph`, `/usage` and `/registry/...`. */
  url: string;
  signingKey: RegistrySigningKey;
  close(): Promise<void>;
}

/** Starts the schema registry (docs/schema-registry.md). */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<RunningRegistry> {
  const config = { ...registryConfigFromEnv(), ...options.config };
  const logger = options.logger ?? createLogger("registry");
  const door = createIdentityDoor({
    subgraph: "registry",
    verifier: options.authenticate,
    insecureDevelopmentIdentity: options.insecureDevelopmentIdentity,
    developmentRoles: Object.values(registryRoles),
    production: config.production,
    logger,
  });
  const signingKey = await registrySigningKeyFrom(config.signingKey, {
    production: config.production,
    keyId: config.signingKeyId,
    warn: (message) => logger.warn(message),
  });
  const retired = config.retiredPublicKeys ? parseRetiredKeys(config.retiredPublicKeys) : [];
  const database = await openRegistryDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const context: RegistryContext = { db: database.db, key: signingKey, usageWindowDays: config.usageRetentionDays };
  const stopPruning = startRepeatingJob(
    "usage retention",
    3_600,
    async () => {
      await pruneUsage(database.db, config.usageRetentionDays);
      return false;
    },
    logger,
  );
  const shell = createHttpServerShell<Identity>({
    port: config.port,
    host: config.host,
    logger,
    checkReady: async () => {
      await sql`SELECT 1`.execute(database.db);
    },
    door: (request, response, requestId, refuse) => door.admit(request, response, requestId, refuse),
    routes: registryRoutes({ context, publicKeys: [signingKey.publicJwk, ...retired] }),
  });
  let url: string;
  try {
    url = await shell.listen();
  } catch (error) {
    await stopPruning();
    await database.close();
    throw error;
  }
  logger.info({ url, driver: database.driver, kid: signingKey.kid }, "registry listening");
  return {
    url,
    signingKey,
    close: async () => {
      await shell.close();
      await stopPruning();
      await database.close();
    },
  };
}

function parseRetiredKeys(text: string): JWK[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('REGISTRY_RETIRED_PUBLIC_JWKS must be a JWKS ({"keys": [...]}) or a JSON list of public JWKs.');
  }
  const keys = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.some((key: JWK) => typeof key !== "object" || key === null || "d" in key || typeof key.kid !== "string")) {
    throw new Error("REGISTRY_RETIRED_PUBLIC_JWKS must hold public JWKs only, each with a kid.");
  }
  return keys as JWK[];
}
