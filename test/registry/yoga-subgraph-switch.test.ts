import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevRealm, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, type RunningRegistry } from "@compliance-graph/registry";
import { createTestDatabase, fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { startTrpd, trpdSchemaFile, type RunningTrpd } from "@compliance-graph/trpd";
import { aopdStandInSchemaFile, startAopdStandIn } from "../support/aopd-stand-in.js";
import { pepSchemaFiles, startPepYogaSubgraph, type RunningPepSubgraph } from "../support/pep/start-pep-yoga-subgraph.js";
import { startSteadyLoad, type SteadyLoad } from "../support/steady-load.js";
import { subgraphCommand, type SubgraphCommandOutcome } from "../support/subgraph-command.js";

const screeningQuery = '{ pepScreening(customerId: "customer-1") { customerId listed position } }';

/**
 * A domain written with another GraphQL server library (GraphQL Yoga, in a process of its own) joins
 * the graph through the schema registry while a steady load runs through two gateways, and a
 * team's whole life with it follows: its role enforced at the gateway, an added field accepted, a
 * removed field that recorded operations use refused (then forced, with the reason kept), a
 * rollback, and both gateways serving the same version after each step.
 */
describe("a GraphQL Yoga subgraph published through the registry under load", () => {
  let folder: string;
  let idp: RunningDevIdentityProvider;
  let registry: RunningRegistry;
  let aopd: RunningSubgraphServer;
  let trpd: RunningTrpd;
  let pep: RunningPepSubgraph;
  const gateways: RunningGateway[] = [];
  let env: Record<string, string>;
  let analystToken: string;
  let outsiderToken: string;

  const served = async (gateway: RunningGateway) =>
    Number(/^gateway_registry_supergraph_version\{[^}]*\} (\d+)$/m.exec(await (await fetch(gateway.metricsUrl)).text())?.[1] ?? "0");
  /** Waits until every gateway serves `version`: the registry's versions reach each replica by polling. */
  const converged = async (version: number) => {
    for (const gateway of gateways) {
      await pollUntil(
        `gateway ${gateway.baseUrl} to serve version ${version}`,
        () => served(gateway),
        (seen) => seen === version,
        { timeoutMs: 60_000 },
      );
    }
  };
  const publishedVersion = (outcome: SubgraphCommandOutcome) => {
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    return (JSON.parse(outcome.stdout) as { version: number }).version;
  };
  const pepArgs = (schemaFile: string) => ["--name", "pep", "--url", pep.url, "--schema", schemaFile];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "registry-yoga-"));
    const internalKey = await generateInternalSigningKey();
    const verifierFor = (audience: string) => createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });
    idp = await startDevIdentityProvider({
      clients: [
        ...readDevRealm().clients,
        { clientId: "pep-analysts", clientSecret: "analysts-secret", roles: ["pep:read"], serviceAccount: true },
        { clientId: "pep-outsider", clientSecret: "outsider-secret", roles: ["proofs:read"], serviceAccount: true },
      ],
    });
    registry = await startRegistry({
      config: { port: 0, databaseUrl: await createTestDatabase("registry_yoga_switch") },
      authenticate: verifierFor("registry"),
    });
    aopd = await startAopdStandIn(verifierFor("aopd"));
    trpd = await startTrpd({ config: { port: 0, production: false }, authenticate: verifierFor("trpd"), logger: createLogger("trpd", "silent") });
    // The platform's own domains go in first, straight to the registry (as `npm start` does before any gateway serves).
    const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
    const publisher = await mint({ subject: "service-account-dev-api-client", client: "dev-api-client", roles: ["schema:publish"] }, "registry");
    for (const [name, url, schemaFile] of [
      ["aopd", aopd.url, aopdStandInSchemaFile],
      ["trpd", trpd.url, trpdSchemaFile],
    ] as const) {
      const response = await fetch(`${registry.url}/registry/subgraphs/publish`, {
        method: "POST",
        headers: { authorization: `Bearer ${publisher}`, "content-type": "application/json" },
        body: JSON.stringify({ name, url, schema: await readFile(schemaFile, "utf8") }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    for (const replica of ["a", "b"]) {
      gateways.push(
        await startGateway({
          port: 0,
          production: false,
          supergraph: { path: "unused-with-the-registry.graphql" },
          registry: { url: registry.url, cachePath: join(folder, `supergraph-${replica}.json`), pollIntervalMs: 200 },
          usage: { url: `${registry.url}/usage`, flushIntervalMs: 200 },
          oidc: { issuer: idp.issuer, audience: idp.audience },
          internalToken: { privateJwk: internalKey.privateJwk },
          logger: createLogger("gateway", "silent"),
        }),
      );
    }
    const [first] = gateways as [RunningGateway];
    pep = await startPepYogaSubgraph(`${first.baseUrl}/.well-known/internal-jwks.json`);
    env = { GRAPH_URL: first.baseUrl, GRAPH_TOKEN: await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret") };
    analystToken = await fetchToken(idp.tokenEndpoint, "pep-analysts", "analysts-secret");
    outsiderToken = await fetchToken(idp.tokenEndpoint, "pep-outsider", "outsider-secret");
    // The field the analysts' operations use, taken out; the rest of the newest version kept.
    await writeFile(
      join(folder, "pep-without-position.graphql"),
      (await readFile(pepSchemaFiles.v2, "utf8")).replace(/ {2}"The public function[^\n]*\n {2}position: String\n/, ""),
    );
  }, 600_000);

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await pep?.stop();
    await Promise.all([aopd?.close(), trpd?.close()]);
    await registry?.close();
    await idp?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("serves the new subgraph on both gateways with no failed request of a steady load through the switch", { timeout: 300_000 }, async () => {
    const load: SteadyLoad = startSteadyLoad({
      gateways: gateways.map((gateway) => gateway.url),
      token: env.GRAPH_TOKEN as string,
      loops: 4,
    });
    try {
      await load.completed(40);
      const before = await served(gateways[0] as RunningGateway);
      const answeredBeforePublish = load.count;
      const published = publishedVersion(await subgraphCommand(["publish", ...pepArgs(pepSchemaFiles.v1), "--json"], env));
      expect(published).toBe(before + 1);
      await converged(published);
      // The load was answered while the version travelled from the command line to both gateways.
      expect(load.count).toBeGreaterThan(answeredBeforePublish);
      for (const gateway of gateways) {
        const { status, body } = await postGraphQL(gateway.url, screeningQuery, analystToken);
        expect(status).toBe(200);
        expect(body).toEqual({ data: { pepScreening: { customerId: "customer-1", listed: true, position: "Minister of Finance" } } });
      }
      // The load keeps running past the switch on both gateways before it is judged.
      await load.completed(load.count + 40);
    } finally {
      await load.stop();
    }
    expect(load.failures).toEqual([]);
    expect(load.count).toBeGreaterThanOrEqual(80);
  });

  it("enforces the new domain's role at the gateway: data for a token granted it, FORBIDDEN naming it otherwise", async () => {
    for (const gateway of gateways) {
      const granted = await postGraphQL(gateway.url, screeningQuery, analystToken);
      expect(granted.body.data).toEqual({ pepScreening: { customerId: "customer-1", listed: true, position: "Minister of Finance" } });
      const refused = await postGraphQL(gateway.url, screeningQuery, outsiderToken);
      expect(refused.status).toBe(403);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect(refused.body.errors?.[0]?.message).toContain("pep:read");
      expect(refused.body.data ?? null).toBeNull();
    }
    // The subgraph itself answers only the gateway's internal token, never a caller's own access token.
    const direct = await postGraphQL(pep.url, screeningQuery, analystToken);
    expect(direct.status).toBe(401);
  });

  it("accepts an added field as safe and serves it on both gateways", { timeout: 300_000 }, async () => {
    const check = await subgraphCommand(["check", ...pepArgs(pepSchemaFiles.v2), "--json"], env);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ safe: true, compositionErrors: [], usage: [] });
    const version = publishedVersion(await subgraphCommand(["publish", ...pepArgs(pepSchemaFiles.v2), "--json"], env));
    await converged(version);
    for (const gateway of gateways) {
      const { body } = await postGraphQL(gateway.url, '{ pepScreening(customerId: "customer-1") { listSource } }', analystToken);
      expect(body).toEqual({ data: { pepScreening: { listSource: "EU PEP list" } } });
    }
  });

  it(
    "refuses to remove a field that recorded operations use, naming it and its client, and keeps the reason of a forced removal",
    { timeout: 300_000 },
    async () => {
      const withoutPosition = join(folder, "pep-without-position.graphql");
      // The gateways flush their counts to the registry off the request path; check until they arrive.
      const check = await pollUntil(
        "the check to see PepScreening.position in use",
        () => subgraphCommand(["check", ...pepArgs(withoutPosition), "--json"], env),
        (outcome) => outcome.code === 1,
        { timeoutMs: 120_000 },
      );
      const report = JSON.parse(check.stdout) as { safe: boolean; usage: { coordinate: string; requests: number; clients: string[] }[] };
      expect(report.safe).toBe(false);
      // Every client whose operations select it, the outsider's refused ones too: they are in its code all the same.
      expect(report.usage).toEqual([
        { coordinate: "PepScreening.position", requests: expect.any(Number) as number, clients: ["pep-analysts", "pep-outsider"] },
      ]);
      expect(report.usage[0]?.requests).toBeGreaterThanOrEqual(4);

      const refused = await subgraphCommand(["publish", ...pepArgs(withoutPosition)], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain("PepScreening.position");
      expect(refused.stdout).toContain("pep-analysts");
      expect(refused.stdout).toContain("pep: publish refused");

      const reason = "The analysts' console no longer shows the position (ticket PEP-12).";
      const forced = publishedVersion(await subgraphCommand(["publish", ...pepArgs(withoutPosition), "--force", "--reason", reason, "--json"], env));
      await converged(forced);
      const history = await subgraphCommand(["history", "--name", "pep", "--json"], env);
      expect(history.code).toBe(0);
      const versions = (JSON.parse(history.stdout) as { versions: { version: number; action: string; reason: string | null; client: string }[] }).versions;
      expect(versions[0]).toMatchObject({ version: forced, action: "publish", reason, client: "dev-api-client" });
      expect(versions.slice(1).every((entry) => entry.reason === null)).toBe(true);
      for (const gateway of gateways) {
        const { body } = await postGraphQL(gateway.url, screeningQuery, analystToken);
        expect(body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      }
    },
  );

  it("rolls back to the previous version on both gateways", { timeout: 300_000 }, async () => {
    const history = JSON.parse((await subgraphCommand(["history", "--name", "pep", "--json"], env)).stdout) as { versions: { version: number }[] };
    const [removal, previous] = history.versions as [{ version: number }, { version: number }];
    const rollback = await subgraphCommand(["rollback", "--to", String(previous.version), "--json"], env);
    expect(rollback.code, rollback.stdout + rollback.stderr).toBe(0);
    const version = (JSON.parse(rollback.stdout) as { version: number }).version;
    expect(version).toBeGreaterThan(removal.version);
    await converged(version);
    for (const gateway of gateways) {
      const { body } = await postGraphQL(gateway.url, '{ pepScreening(customerId: "customer-1") { position listSource } }', analystToken);
      expect(body).toEqual({ data: { pepScreening: { position: "Minister of Finance", listSource: "EU PEP list" } } });
    }
  });
});
