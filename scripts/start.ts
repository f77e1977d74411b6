// `npm start`: the whole system on one base URL for a local trial, as a Keycloak deployment behind
// one ingress would look: the development identity provider at /auth/realms/<realm>/..., the
// gateway at /graphql, the public AOPP callback at /aopp/callback/ and the customer portal at /portal/ (both
// forwarded to aopd), the officer console at /console/, and the aopd (embedded PGlite, demo proofs) and trpd subgraphs behind it,
// published through the schema registry (embedded PGlite) that the gateway takes its supergraph from.
// Ctrl-C stops everything. Each part also runs on its own (see docs/authentication.md).
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair } from "jose";
import { parse as parseYaml } from "yaml";
import { startAopd } from "@compliance-graph/aopd";
import { consoleDistDir, consoleRoute } from "@compliance-graph/console";
import { createDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { gatewayOptionsFromEnv, startGateway } from "@compliance-graph/gateway";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger, forwardPathPrefix, onShutdownSignal, portInUseMessage, startTracing } from "@compliance-graph/process-shell";
import { startRegistry } from "@compliance-graph/registry";
import { startTrpd, trpdSchemaFile } from "@compliance-graph/trpd";

process.env.APOLLO_TELEMETRY_DISABLED = "1";
if (process.env.NODE_ENV === "production") {
  console.error("npm start is the local trial; it refuses NODE_ENV=production. Run each deployable on its own.");
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);
// PORT moves every port the trial opens: the subgraphs listen on the next two (unless AOPD_PORT or TRPD_PORT say otherwise).
const aopdPort = Number(process.env.AOPD_PORT ?? port + 1);
const trpdPort = Number(process.env.TRPD_PORT ?? port + 2);
const registryPort = Number(process.env.REGISTRY_PORT ?? port + 3);
// Which variable moves which port, for the one line a taken port gets instead of a stack trace.
const portVariables = {
  [port]: "PORT",
  [aopdPort]: process.env.AOPD_PORT ? "AOPD_PORT" : "PORT (the subgraphs take the next two ports) or AOPD_PORT",
  [trpdPort]: process.env.TRPD_PORT ? "TRPD_PORT" : "PORT (the subgraphs take the next two ports) or TRPD_PORT",
  [registryPort]: process.env.REGISTRY_PORT ? "REGISTRY_PORT" : "PORT (the schema registry takes PORT + 3) or REGISTRY_PORT",
};
const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
// One process for the whole trial, one service in traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set).
const tracing = startTracing("compliance-graph");
const logger = createLogger("start");
// Before anything starts: Ctrl-C or SIGTERM during start-up stops what has started so far.
const started: {
  aopd?: { close(): Promise<void> };
  trpd?: { close(): Promise<void> };
  registry?: { close(): Promise<void> };
  gateway?: { close(): Promise<void> };
} = {};
onShutdownSignal(logger, async () => {
  await started.gateway?.close();
  await Promise.all([started.aopd?.close(), started.trpd?.close(), started.registry?.close()]);
  await tracing.shutdown();
});

try {
  await startTrial();
} catch (error) {
  const message = portInUseMessage(error, portVariables);
  if (!message) throw error;
  console.error(message);
  await started.gateway?.close();
  await Promise.all([started.aopd?.close(), started.trpd?.close(), started.registry?.close()]);
  await tracing.shutdown();
  process.exit(1);
}

async function startTrial(): Promise<void> {
  // Its API client gets every role the gateway serves, so a newly published domain can be called at once.
  let gatewayRoles = (): readonly string[] => [];
  const idp = await createDevIdentityProvider({ baseUrl, servedRoles: () => gatewayRoles() });
  // One generated key pair: the gateway signs with it, the subgraphs trust its public half.
  const internalKey = await generateInternalSigningKey();
  const verifierFor = (audience: string) => createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });

  const aopd = await startAopd({
    authenticate: verifierFor("aopd"),
    seedDemoProofs: 250,
    logger: createLogger("aopd"),
    // Wallets and customers reach the trial on its one base URL.
    config: {
      port: aopdPort,
      callbackBaseUrl: process.env.AOPD_CALLBACK_BASE_URL ?? `${baseUrl}/aopp/callback`,
      portalUrl: process.env.AOPD_PORTAL_URL ?? `${baseUrl}/portal`,
      // The gateway serves the officers' media route beside /graphql.
      mediaUrl: process.env.AOPD_MEDIA_URL ?? `${baseUrl}/aopd/media`,
      // The forwarder below is one proxy hop that appends the caller's address to x-forwarded-for.
      trustedProxyHops: process.env.AOPD_TRUSTED_PROXY_HOPS ? Number(process.env.AOPD_TRUSTED_PROXY_HOPS) : 1,
    },
  });
  started.aopd = aopd;
  const forwardCallback = forwardPathPrefix("/aopp/callback/", aopd.url);
  const forwardPortal = forwardPathPrefix("/portal/", aopd.url);
  const serveConsole = consoleRoute(consoleDistDir, { issuer: idp.issuer });
  const trpd = await startTrpd({ authenticate: verifierFor("trpd"), logger: createLogger("trpd"), config: { port: trpdPort } });
  started.trpd = trpd;
  const registry = await startRegistry({
    authenticate: verifierFor("registry"),
    logger: createLogger("registry"),
    config: { port: registryPort, signingKey: process.env.REGISTRY_SIGNING_KEY ?? (await developmentRegistryKey(".data/registry-signing-key.json")) },
  });
  started.registry = registry;
  // aopd and trpd enter the supergraph as any team's subgraph does: published through the registry.
  const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
  const fileRoutes = (parseYaml(await readFile(new URL("../subgraph-routes.yaml", import.meta.url), "utf8")) as { routes: { subgraph: string }[] }).routes;
  for (const [name, url, schemaFile] of [
    ["aopd", aopd.url, fileURLToPath(new URL("../subgraphs/aopd/aopd.graphql", import.meta.url))],
    ["trpd", trpd.url, trpdSchemaFile],
  ] as const) {
    const publish = async (force: boolean) =>
      fetch(`${registry.url}/registry/subgraphs/publish`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await mint({ subject: "npm-start", client: "dev-api-client", roles: ["schema:publish"] }, "registry")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          name,
          url,
          schema: await readFile(schemaFile, "utf8"),
          routes: fileRoutes.filter((route) => route.subgraph === name),
          ...(force ? { force: true, reason: "npm start serves this checkout's schema" } : {}),
        }),
      });
    let answer = await publish(false);
    // A change against what an earlier trial recorded as in use: the checkout is what this trial serves.
    if (answer.status === 409) answer = await publish(true);
    if (!answer.ok) throw new Error(`Publishing ${name} to the schema registry failed (HTTP ${answer.status}): ${await answer.text()}`);
  }
  const options = await gatewayOptionsFromEnv({
    ...process.env,
    PORT: String(port),
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: idp.audience,
    INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(internalKey.privateJwk),
    SUPERGRAPH_PATH: process.env.SUPERGRAPH_PATH ?? fileURLToPath(new URL("../supergraph.graphql", import.meta.url)),
  });
  const gateway = await startGateway({
    ...options,
    host: process.env.HOST ?? "localhost",
    subgraphUrls: { aopd: aopd.url, trpd: trpd.url, ...options.subgraphUrls },
    registry: { url: registry.url, cachePath: ".data/gateway-supergraph.json", pollIntervalMs: 1_000 },
    usage: { url: `${registry.url}/usage` },
    logger: createLogger("gateway"),
    // The ingress of this trial: the identity provider's paths, aopd's public AOPP callback and portal, the console.
    routes: [...idp.routes, forwardCallback, forwardPortal, ...serveConsole],
  });
  started.gateway = gateway;
  gatewayRoles = () => gateway.servedRoles();

  const client = process.env.DEV_IDP_CLIENT_ID ?? "dev-api-client";
  const secret = process.env.DEV_IDP_CLIENT_SECRET ?? "dev-secret";
  console.log(`
compliance-graph is running at ${baseUrl}

The officer console: ${baseUrl}/console/
  sign in as demo-officer / demo-password (reads, exports, requests and decides proofs)
          or demo-officer-2 / demo-password (the same roles: the second officer of four eyes)
          or demo-auditor / demo-password (reads proofs and the audit trail, decides nothing)

Get a token (client-credentials grant, spec 4.3); it lives ${idp.accessTokenTtlSeconds} seconds (DEV_IDP_ACCESS_TOKEN_TTL_SECONDS),
then the gateway answers 401 and you get a new one the same way:

  TOKEN=$(curl -s -X POST ${idp.tokenEndpoint} \\
    -d client_id=${client} -d grant_type=client_credentials -d client_secret=${secret} -d scope=openid \\
    | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')

First query, across both subgraphs:

  curl -s ${gateway.url.replace(/\/\/[^/]+/, `//${new URL(baseUrl).host}`)} -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"query":"{ trpd { vasps { name } } aopd { proofsCount proofs(limit: 2) { id address travelRuleTransfers { counterpartyVasp direction } } } }"}'

Ask a customer for a proof, then open the portalUrl it answers (the customer's page):

  curl -s ${gateway.url.replace(/\/\/[^/]+/, `//${new URL(baseUrl).host}`)} -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"query":"mutation { aopd { requestAoppProof(input: { customerId: \\"CUST-1\\", asset: DTI4H95J0R2X }) { portalUrl } } }"}'

Publish a subgraph of your own (docs/schema-registry.md), with that token:

  GRAPH_TOKEN=$TOKEN npm run subgraph -- check --name kyc --url http://localhost:4100/graphql --schema kyc.graphql

Ctrl-C stops everything.
`);
}

/**
 * The trial's registry signing key, kept in a file (mode 0600) so that the versions it signed still
 * verify after a restart; made on first use. A trial key only: production refuses its `dev-` kid.
 */
function developmentRegistryKey(file: string): Promise<string> {
  try {
    return Promise.resolve(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return (async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const text = JSON.stringify({ ...(await exportJWK(privateKey)), kid: `dev-registry-${randomUUID()}` });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { mode: 0o600, flag: "wx" });
    return text;
  })();
}
