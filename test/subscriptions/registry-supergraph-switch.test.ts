import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdSchemaFile, startAopd, type RunningAopd } from "@compliance-graph/aopd";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type InternalTokenMinter } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, type RunningRegistry } from "@compliance-graph/registry";
import { createTestDatabase, fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { heldSchemaFiles, startHeldSubgraph, type RunningHeldSubgraph } from "../support/held/start-held-subgraph.js";
import { awaitLive } from "./support/await-live.js";
import { openProofWriter, type ProofWriter } from "./support/proof-writer.js";
import { legacyClient, modernClient, subscribeLegacy, subscribeModern, wsUrl } from "./support/subscription-clients.js";

const byCustomer = (customerId: string) => `subscription { aopdProofs(filter: { is: { any: { customerId: { eq: "${customerId}" } } } }) { id } }`;

const reloaded = {
  message: "The gateway loaded a new version of the supergraph; subscribe again.",
  extensions: { code: "SERVICE_UNAVAILABLE", reason: "SUPERGRAPH_RELOADED" },
};

/**
 * When a gateway takes a new supergraph from the schema registry, what runs on the old one ends
 * as documented (docs/subscriptions.md, docs/operations.md): a request in flight finishes on the
 * plan it started with, and a running subscription ends with `SUPERGRAPH_RELOADED` on both
 * subprotocols, never silently; a new subscription is served on the new supergraph.
 */
describe("a new supergraph from the registry, with requests and subscriptions running", () => {
  let folder: string;
  let idp: RunningDevIdentityProvider;
  let registry: RunningRegistry;
  let aopd: RunningAopd;
  let held: RunningHeldSubgraph;
  let gateway: RunningGateway;
  let writer: ProofWriter;
  let mint: InternalTokenMinter;
  let token: string;

  const publish = async (name: string, url: string, schemaFile: string | URL) => {
    const publisher = await mint({ subject: "service-account-dev-api-client", client: "dev-api-client", roles: ["schema:publish"] }, "registry");
    const response = await fetch(`${registry.url}/registry/subgraphs/publish`, {
      method: "POST",
      headers: { authorization: `Bearer ${publisher}`, "content-type": "application/json" },
      body: JSON.stringify({ name, url, schema: await readFile(schemaFile, "utf8") }),
    });
    const body = (await response.json()) as { version: number; published: boolean };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.published).toBe(true);
    return body.version;
  };
  const metric = async (line: RegExp) => Number(line.exec(await (await fetch(gateway.metricsUrl)).text())?.[1] ?? "0");
  const sharedRequests = () => metric(/^gateway_shared_requests_total(?:\{[^}]*\})? (\d+)$/m);
  const served = () => metric(/^gateway_registry_supergraph_version\{[^}]*\} (\d+)$/m);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "registry-subscriptions-"));
    const internalKey = await generateInternalSigningKey();
    const verifierFor = (audience: string) => createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });
    mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
    idp = await startDevIdentityProvider();
    registry = await startRegistry({
      config: { port: 0, databaseUrl: await createTestDatabase("registry_subscriptions") },
      authenticate: verifierFor("registry"),
    });
    const databaseUrl = await createTestDatabase("registry_subscriptions_aopd");
    aopd = await startAopd({
      config: { port: 0, databaseUrl, production: false },
      authenticate: verifierFor("aopd"),
      seedDemoProofs: 0,
      logger: createLogger("aopd", "silent"),
    });
    writer = await openProofWriter(databaseUrl);
    held = await startHeldSubgraph(verifierFor("held"));
    await publish("aopd", aopd.url, aopdSchemaFile);
    await publish("held", held.url, heldSchemaFiles.v1);
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: "unused-with-the-registry.graphql" },
      registry: { url: registry.url, cachePath: join(folder, "supergraph.json"), pollIntervalMs: 200 },
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    token = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
  }, 300_000);

  afterAll(async () => {
    held?.release();
    await gateway?.close();
    await writer?.close();
    await Promise.all([aopd?.close(), held?.close()]);
    await registry?.close();
    await idp?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("finishes a request in flight on its plan and ends subscriptions with SUPERGRAPH_RELOADED on both subprotocols", { timeout: 300_000 }, async () => {
    const modern = modernClient(wsUrl(gateway.url), token);
    const legacy = legacyClient(wsUrl(gateway.url, "/graphql-ws"), token);
    try {
      const onModern = subscribeModern(modern, byCustomer("c-registry-modern"));
      const onLegacy = subscribeLegacy(legacy, byCustomer("c-registry-legacy"));
      await awaitLive(writer, onModern, { customerId: "c-registry-modern" });
      await awaitLive(writer, onLegacy, { customerId: "c-registry-legacy" });

      // Planned on the first version, which has heldAnswer; held at the subgraph until the switch is done.
      const inFlight = postGraphQL(gateway.url, "{ heldAnswer }", token);
      await held.entered();
      const before = await served();
      const next = await publish("held", held.url, heldSchemaFiles.v2);
      expect(next).toBe(before + 1);
      await pollUntil("the gateway to serve the new version", served, (version) => version === next, { timeoutMs: 60_000 });

      await onModern.until((state) => state.error !== undefined, 30_000);
      expect(onModern.error).toEqual([reloaded]);
      await onLegacy.until((state) => state.error !== undefined, 30_000);
      // subscriptions-transport-ws hands its error callback the first error of the `error` message.
      expect(onLegacy.error).toEqual(reloaded);
      // The same request again, from the same caller, once the new supergraph is served: validated on the new
      // one, never joined to the execution that started on the old one (share-inflight-requests.ts).
      const sharedBefore = await sharedRequests();
      let settled = false;
      const after = postGraphQL(gateway.url, "{ heldAnswer }", token).finally(() => (settled = true));
      await pollUntil(
        "the request after the switch to be answered or joined to the held one",
        async () => settled || (await sharedRequests()) > sharedBefore,
        (done) => done,
      );
      held.release();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ data: { heldAnswer: "held, then answered" } });
      const afterAnswer = await after;
      expect(afterAnswer.body.errors?.[0]?.extensions?.code, JSON.stringify(afterAnswer.body)).toBe("GRAPHQL_VALIDATION_FAILED");
      expect((await postGraphQL(gateway.url, "{ nextAnswer }", token)).body).toEqual({ data: { nextAnswer: "answered at once" } });

      // A subscription made now is served on the new supergraph.
      const again = subscribeModern(modern, byCustomer("c-registry-modern"));
      await awaitLive(writer, again, { customerId: "c-registry-modern" });
    } finally {
      await modern.dispose();
      legacy.close();
    }
  });
});
