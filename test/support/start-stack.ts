import type { IncomingHttpHeaders } from "node:http";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JWK } from "jose";
import { startAopd, type AopdConfig, type RunningAopd } from "@compliance-graph/aopd";
import { readDevRealm, startDevIdentityProvider, type DevClient, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { composeSubgraphs, startGateway, type GatewayOptions, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenVerifier, generateInternalSigningKey, type InternalSigningKey, type RoleSource } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { fetchToken, postGraphQL, type GraphQLBody } from "@compliance-graph/test-kit";
import { startTrpd, trpdSchemaFile } from "@compliance-graph/trpd";
import { aopdStandInSchemaFile, startAopdStandIn } from "./aopd-stand-in.js";

export interface Stack {
  idp: RunningDevIdentityProvider;
  gateway: RunningGateway;
  internalKey: InternalSigningKey;
  subgraphUrls: { aopd: string; trpd: string };
  supergraphPath: string;
  /** An access token from the development provider, fetched with the form of spec 4.3. */
  fetchToken(clientId?: string, clientSecret?: string): Promise<string>;
  /** The real aopd's services (its database, configuration, metrics); undefined with the stand-in. */
  readonly aopdServices: RunningAopd["services"] | undefined;
  /** Stops the real aopd and starts it again on the same port and database (a restart, a deploy). */
  restartAopd(): Promise<void>;
  /** Stops the gateway and starts it again on the same port. */
  restartGateway(): Promise<void>;
  /** POSTs a query to the gateway with the given token (none when undefined). */
  query(query: string, token: string | undefined, variables?: Record<string, unknown>): Promise<{ status: number; headers: Headers; body: GraphQLBody }>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Extra clients of the development provider (a client with fewer roles, for instance). */
  extraClients?: DevClient[];
  signingKeys?: JWK[];
  jwksCooldownMs?: number;
  limits?: { maxDepth?: number; maxAliases?: number; maxTokens?: number };
  maxBodyBytes?: number;
  supergraphPollIntervalMs?: number;
  /**
   * Serve the real aopd subgraph (on this PostgreSQL database, with demo proofs) and the committed
   * supergraph.graphql instead of the stand-in.
   */
  realAopd?: { databaseUrl: string; seedDemoProofs: number; config?: Partial<AopdConfig> };
  /** Sees the headers of every request a subgraph receives (before the subgraph verifies it). */
  onSubgraphRequest?: (subgraph: string, headers: IncomingHttpHeaders) => void;
  /** The gateway's subscription limits. */
  subscriptions?: GatewayOptions["subscriptions"];
  /** Proxies in front of the gateway whose `x-forwarded-for` entries it trusts (`GATEWAY_TRUSTED_PROXY_HOPS`). */
  trustedProxyHops?: number;
  /** The gateway's limit of subgraph calls per operation. */
  maxSubgraphFetches?: number;
  /** The gateway's operation cost limits (`GRAPHQL_MAX_COST`, ...). */
  cost?: GatewayOptions["cost"];
  /** Routing URLs the gateway uses instead of the started subgraphs' (a subgraph that is down, say). */
  subgraphUrlOverrides?: Partial<Record<"aopd" | "trpd", string>>;
  /** Where the gateway reads roles in tokens (`OIDC_ROLE_SOURCES`). @default Keycloak's places */
  roleSources?: RoleSource[];
  /** How long the gateway waits for a subgraph's answer (`GATEWAY_SUBGRAPH_TIMEOUT_MS`). @default 30_000 // milliseconds */
  subgraphTimeoutMs?: number;
  /** The gateway's quotas per client and subject (`GATEWAY_QUOTA_*`). */
  quotas?: GatewayOptions["quotas"];
  /** The gateway's logger. @default silent */
  gatewayLogger?: GatewayOptions["logger"];
}

const committedSupergraph = fileURLToPath(new URL("../../supergraph.graphql", import.meta.url));

export const defaultClient = { clientId: "dev-api-client", clientSecret: "dev-secret" };

/**
 * The whole stack on free ports: the development identity provider, the aopd stand-in, trpd and
 * the gateway serving a supergraph composed from their schemas into a temporary file.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    const idp = await startDevIdentityProvider({
      // The committed realm's clients (the API client has every role), and the test's own.
      clients: [...readDevRealm().clients, ...(options.extraClients ?? [])],
      ...(options.signingKeys ? { signingKeys: options.signingKeys } : {}),
    });
    closers.push(() => idp.close());
    const internalKey = await generateInternalSigningKey();
    const verifierFor = (audience: string) => {
      const verify = createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });
      return (headers: IncomingHttpHeaders) => {
        options.onSubgraphRequest?.(audience, { ...headers });
        return verify(headers);
      };
    };
    const realAopd = options.realAopd;
    const startRealAopd = (port: number, seedDemoProofs: number) =>
      startAopd({
        config: { port, databaseUrl: realAopd?.databaseUrl, production: false, ...realAopd?.config },
        authenticate: verifierFor("aopd"),
        seedDemoProofs,
        logger: createLogger("aopd", "silent"),
      });
    let aopd = realAopd ? await startRealAopd(0, realAopd.seedDemoProofs) : await startAopdStandIn(verifierFor("aopd"));
    closers.push(() => aopd.close());
    const trpd = await startTrpd({ config: { port: 0, production: false }, authenticate: verifierFor("trpd"), logger: createLogger("trpd", "silent") });
    closers.push(() => trpd.close());
    const folder = await mkdtemp(join(tmpdir(), "cg-stack-"));
    closers.push(() => rm(folder, { recursive: true, force: true }));
    const supergraphPath = join(folder, "supergraph.graphql");
    await writeFile(
      supergraphPath,
      options.realAopd
        ? await readFile(committedSupergraph, "utf8")
        : await composeSubgraphs([
            { name: "aopd", routingUrl: "http://localhost:4001/graphql", schemaFile: aopdStandInSchemaFile },
            { name: "trpd", routingUrl: "http://localhost:4002/graphql", schemaFile: trpdSchemaFile },
          ]),
    );
    const subgraphUrls = { aopd: aopd.url, trpd: trpd.url };
    const startGatewayOn = (port: number) =>
      startGateway({
        port,
        production: false,
        supergraph: { path: supergraphPath, pollIntervalMs: options.supergraphPollIntervalMs ?? 100 },
        subgraphUrls: { ...subgraphUrls, ...options.subgraphUrlOverrides },
        oidc: {
          issuer: idp.issuer,
          audience: idp.audience,
          ...(options.jwksCooldownMs !== undefined ? { jwksCooldownMs: options.jwksCooldownMs } : {}),
          ...(options.roleSources ? { roleSources: options.roleSources } : {}),
        },
        internalToken: { privateJwk: internalKey.privateJwk },
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
        ...(options.subscriptions ? { subscriptions: options.subscriptions } : {}),
        ...(options.trustedProxyHops !== undefined ? { trustedProxyHops: options.trustedProxyHops } : {}),
        ...(options.maxSubgraphFetches !== undefined ? { maxSubgraphFetches: options.maxSubgraphFetches } : {}),
        ...(options.cost ? { cost: options.cost } : {}),
        ...(options.subgraphTimeoutMs !== undefined ? { subgraphTimeoutMs: options.subgraphTimeoutMs } : {}),
        ...(options.quotas ? { quotas: options.quotas } : {}),
        logger: options.gatewayLogger ?? createLogger("gateway", "silent"),
      });
    let gateway = await startGatewayOn(0);
    closers.push(() => gateway.close());
    const portOf = (url: string) => Number(new URL(url).port);
    return {
      idp,
      get gateway() {
        return gateway;
      },
      get aopdServices() {
        return "services" in aopd ? aopd.services : undefined;
      },
      restartAopd: async () => {
        if (!realAopd) throw new Error("Only the real aopd restarts.");
        const port = portOf(aopd.url);
        await aopd.close();
        aopd = await startRealAopd(port, 0);
      },
      restartGateway: async () => {
        const port = portOf(gateway.url);
        await gateway.close();
        gateway = await startGatewayOn(port);
      },
      internalKey,
      subgraphUrls,
      supergraphPath,
      fetchToken: (clientId = defaultClient.clientId, clientSecret = defaultClient.clientSecret) => fetchToken(idp.tokenEndpoint, clientId, clientSecret),
      query: (query, token, variables) => postGraphQL(gateway.url, query, token, variables),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// Moved to the test kit, where the benchmarks share them; re-exported for the many tests that import them from here.
export { fetchToken, postGraphQL, type GraphQLBody };
