import type { JWK } from "jose";
import { generateInternalSigningKey, parseRoleSources } from "@compliance-graph/identity";
import { parseAccessTokenMarkers } from "./authentication/access-token-marker.js";
import { metricsExposureFromEnv, type Logger } from "@compliance-graph/process-shell";
import type { GatewayOptions } from "./start-gateway.js";
import { quotaSettingsFromEnv } from "./quotas/quota-settings.js";
import { subscriptionLimitsFromEnv } from "./subscriptions/subscription-limits.js";

function integer(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer; got ${JSON.stringify(raw)}.`);
  return value;
}

function list(raw: string | undefined): string[] | undefined {
  return raw === undefined || raw === ""
    ? undefined
    : raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
}

function registryFromEnv(env: NodeJS.ProcessEnv, url: string): NonNullable<GatewayOptions["registry"]> {
  if (!/^https?:\/\//.test(url)) throw new Error(`GATEWAY_REGISTRY_URL must be an http(s) URL of the schema registry; got ${JSON.stringify(url)}.`);
  const pollIntervalMs = integer(env, "GATEWAY_REGISTRY_POLL_INTERVAL_MS");
  if (pollIntervalMs !== undefined && (pollIntervalMs < 100 || pollIntervalMs > 10_000)) {
    throw new Error("GATEWAY_REGISTRY_POLL_INTERVAL_MS must be between 100 and 10000 (milliseconds): every replica serves a new version within 10 seconds.");
  }
  return {
    url,
    ...(env.GATEWAY_SUPERGRAPH_KEYS ? { keys: env.GATEWAY_SUPERGRAPH_KEYS } : {}),
    ...(env.GATEWAY_SUPERGRAPH_CACHE_PATH ? { cachePath: env.GATEWAY_SUPERGRAPH_CACHE_PATH } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  };
}

function usageFromEnv(env: NodeJS.ProcessEnv): Pick<GatewayOptions, "usage"> {
  const recording = env.GATEWAY_USAGE_RECORDING ?? "true";
  if (recording !== "true" && recording !== "false") throw new Error(`GATEWAY_USAGE_RECORDING must be true or false; got ${JSON.stringify(recording)}.`);
  const url = env.GATEWAY_USAGE_URL || (env.GATEWAY_REGISTRY_URL ? `${env.GATEWAY_REGISTRY_URL.replace(/\/+$/, "")}/usage` : undefined);
  if (recording === "false" || url === undefined) return {};
  const flushIntervalMs = integer(env, "GATEWAY_USAGE_FLUSH_INTERVAL_MS");
  const maxOperations = integer(env, "GATEWAY_USAGE_MAX_OPERATIONS");
  if (flushIntervalMs === 0) throw new Error("GATEWAY_USAGE_FLUSH_INTERVAL_MS must be at least 1 (milliseconds).");
  return { usage: { url, ...(flushIntervalMs !== undefined ? { flushIntervalMs } : {}), ...(maxOperations !== undefined ? { maxOperations } : {}) } };
}

/**
 * The gateway's configuration from its environment; `docs/authentication.md` lists every variable.
 * Without `INTERNAL_JWT_PRIVATE_JWK` a development key is generated (its public half is served at
 * `/.well-known/internal-jwks.json`); `startGateway` refuses such a key in production.
 */
export async function gatewayOptionsFromEnv(env: NodeJS.ProcessEnv = process.env, logger?: Logger): Promise<GatewayOptions> {
  const production = env.NODE_ENV === "production";
  const issuer = env.OIDC_ISSUER;
  if (!issuer) throw new Error("OIDC_ISSUER is required: the URL of the identity provider's realm.");
  let privateJwk: JWK;
  if (env.INTERNAL_JWT_PRIVATE_JWK) {
    privateJwk = JSON.parse(env.INTERNAL_JWT_PRIVATE_JWK) as JWK;
  } else {
    if (production) throw new Error("INTERNAL_JWT_PRIVATE_JWK is required in production.");
    privateJwk = (await generateInternalSigningKey()).privateJwk;
    logger?.warn("no INTERNAL_JWT_PRIVATE_JWK: signing internal tokens with a generated development key");
  }
  const subgraphUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9_]+)_URL$/.exec(name);
    if (match?.[1] && value) subgraphUrls[match[1].toLowerCase()] = value;
  }
  const algorithms = list(env.OIDC_ALGORITHMS);
  const roleClients = list(env.OIDC_ROLE_CLIENTS);
  const roleSources = env.OIDC_ROLE_SOURCES ? parseRoleSources(env.OIDC_ROLE_SOURCES) : undefined;
  const accessTokenMarkers = env.OIDC_ACCESS_TOKEN_MARKERS ? parseAccessTokenMarkers(env.OIDC_ACCESS_TOKEN_MARKERS) : undefined;
  const clockToleranceSeconds = integer(env, "OIDC_CLOCK_TOLERANCE_SECONDS");
  const ttlSeconds = integer(env, "INTERNAL_JWT_TTL_SECONDS");
  const maxLifetimeSeconds = integer(env, "OIDC_MAX_TOKEN_LIFETIME_SECONDS");
  const limits = {
    ...(integer(env, "GRAPHQL_MAX_DEPTH") !== undefined ? { maxDepth: integer(env, "GRAPHQL_MAX_DEPTH") } : {}),
    ...(integer(env, "GRAPHQL_MAX_ALIASES") !== undefined ? { maxAliases: integer(env, "GRAPHQL_MAX_ALIASES") } : {}),
    ...(integer(env, "GRAPHQL_MAX_TOKENS") !== undefined ? { maxTokens: integer(env, "GRAPHQL_MAX_TOKENS") } : {}),
  };
  const cost = {
    ...(integer(env, "GRAPHQL_MAX_COST") !== undefined ? { maxCost: integer(env, "GRAPHQL_MAX_COST") } : {}),
    ...(integer(env, "GRAPHQL_MAX_LIST_ROWS") !== undefined ? { maxListRows: integer(env, "GRAPHQL_MAX_LIST_ROWS") } : {}),
    ...(integer(env, "GRAPHQL_ASSUMED_LIST_SIZE") !== undefined ? { assumedListSize: integer(env, "GRAPHQL_ASSUMED_LIST_SIZE") } : {}),
  };
  const subgraphTimeoutMs = integer(env, "GATEWAY_SUBGRAPH_TIMEOUT_MS");
  if (subgraphTimeoutMs === 0) throw new Error("GATEWAY_SUBGRAPH_TIMEOUT_MS must be at least 1 (milliseconds); a subgraph call is never unbounded.");
  return {
    port: integer(env, "PORT") ?? 4000,
    host: env.HOST ?? "127.0.0.1",
    production,
    supergraph: { path: env.SUPERGRAPH_PATH ?? "supergraph.graphql", pollIntervalMs: integer(env, "SUPERGRAPH_POLL_INTERVAL_MS") ?? 1_000 },
    ...(env.SUBGRAPH_ROUTES_PATH ? { subgraphRoutesPath: env.SUBGRAPH_ROUTES_PATH } : {}),
    ...(env.GATEWAY_REGISTRY_URL ? { registry: registryFromEnv(env, env.GATEWAY_REGISTRY_URL) } : {}),
    ...usageFromEnv(env),
    subgraphUrls,
    oidc: {
      issuer,
      audience: env.OIDC_AUDIENCE ?? "compliance-graph",
      ...(algorithms ? { algorithms } : {}),
      ...(roleClients ? { roleClients } : {}),
      ...(roleSources ? { roleSources } : {}),
      ...(accessTokenMarkers ? { accessTokenMarkers } : {}),
      ...(clockToleranceSeconds !== undefined ? { clockToleranceSeconds } : {}),
      ...(maxLifetimeSeconds !== undefined ? { maxLifetimeSeconds } : {}),
    },
    internalToken: {
      privateJwk,
      ...(env.INTERNAL_JWT_ISSUER ? { issuer: env.INTERNAL_JWT_ISSUER } : {}),
      ...(ttlSeconds !== undefined ? { ttlSeconds } : {}),
      ...(env.INTERNAL_JWT_PREVIOUS_PUBLIC_JWKS ? { additionalPublicKeys: (JSON.parse(env.INTERNAL_JWT_PREVIOUS_PUBLIC_JWKS) as { keys: JWK[] }).keys } : {}),
    },
    introspection: env.GRAPHQL_INTROSPECTION === undefined ? !production : env.GRAPHQL_INTROSPECTION === "true",
    limits: limits as GatewayOptions["limits"],
    cost: cost as GatewayOptions["cost"],
    ...(integer(env, "GRAPHQL_MAX_SUBGRAPH_FETCHES") !== undefined ? { maxSubgraphFetches: integer(env, "GRAPHQL_MAX_SUBGRAPH_FETCHES") } : {}),
    maxBodyBytes: integer(env, "GRAPHQL_MAX_BODY_BYTES") ?? 1_048_576,
    subscriptions: subscriptionLimitsFromEnv(env),
    trustedProxyHops: integer(env, "GATEWAY_TRUSTED_PROXY_HOPS") ?? 0,
    ...(integer(env, "GATEWAY_PUBLIC_SUBMISSIONS_PER_MINUTE") !== undefined
      ? { publicSubmissionsPerMinute: integer(env, "GATEWAY_PUBLIC_SUBMISSIONS_PER_MINUTE") }
      : {}),
    deduplicateQueries: env.GATEWAY_DEDUPLICATE_QUERIES !== "false",
    shareRequests: env.GATEWAY_SHARE_REQUESTS !== "false",
    executePlans: env.GATEWAY_EXECUTE_PLANS !== "false",
    ...(subgraphTimeoutMs !== undefined ? { subgraphTimeoutMs } : {}),
    metricsExposure: metricsExposureFromEnv(env),
    quotas: quotaSettingsFromEnv(env, production),
  };
}
