import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { fetchToken } from "@compliance-graph/test-kit";
import { bigQuery, smallQuery } from "../../bench/src/scenarios/federation-benchmark/benchmark-queries.js";
import { composeBenchmarkSupergraph } from "../../bench/src/scenarios/federation-benchmark/compose-benchmark-supergraph.js";
import type { FieldFault } from "../../bench/src/scenarios/federation-benchmark/benchmark-subgraphs.js";
import { startBenchmarkSubgraphs, type RunningBenchmarkSubgraphs } from "../../bench/src/scenarios/federation-benchmark/start-benchmark-subgraphs.js";
import { arbitraryBenchmarkOperation } from "../support/arbitrary-benchmark-operation.js";

/**
 * The gateway's own plan executor and answer writer (gateway/src/execution/) against
 * `@apollo/gateway`'s: two gateways, the same in all but GATEWAY_EXECUTE_PLANS, in front of the same
 * subgraphs, must answer every request with the same bytes and status, errors and nulls included.
 * Each operation is sent to ours twice: the first request is planned (and executed) by Apollo, the
 * second runs the kept plan in the gateway's executor; the test checks that it did.
 */
describe("plan execution: the gateway's executor answers byte for byte as @apollo/gateway's", () => {
  let idp: RunningDevIdentityProvider;
  let subgraphs: RunningBenchmarkSubgraphs;
  let ours: RunningGateway;
  let apollos: RunningGateway;
  let token: string;
  let folder: string;
  // The subgraphs' faults for the current case: a seed, and how often a field fails (0: never).
  const faults = { seed: 0, rate: 0 };
  const fault: FieldFault = ({ subgraph, type, field, parent }) => {
    if (faults.rate === 0) return undefined;
    const roll = hash(`${faults.seed}|${subgraph}|${type}|${field}|${JSON.stringify(parent)}`) % 1000;
    if (roll < faults.rate * 500) return "null";
    if (roll < faults.rate * 1000) return "error";
    return undefined;
  };

  beforeAll(async () => {
    idp = await startDevIdentityProvider({});
    subgraphs = await startBenchmarkSubgraphs({ fault });
    folder = await mkdtemp(join(tmpdir(), "cg-differential-"));
    const supergraphPath = join(folder, "supergraph.graphql");
    await writeFile(supergraphPath, composeBenchmarkSupergraph(subgraphs.url));
    const routes = join(folder, "routes.yaml");
    await writeFile(routes, "routes: []\n");
    const key = await generateInternalSigningKey();
    const start = (executePlans: boolean) =>
      startGateway({
        port: 0,
        production: false,
        supergraph: { path: supergraphPath },
        subgraphRoutesPath: routes,
        oidc: { issuer: idp.issuer, audience: idp.audience },
        internalToken: { privateJwk: key.privateJwk },
        executePlans,
        shareRequests: false,
        logger: createLogger("gateway", "silent"),
      });
    [ours, apollos] = [await start(true), await start(false)];
    token = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
  });
  afterAll(async () => {
    await ours?.close();
    await apollos?.close();
    await subgraphs?.close();
    await idp?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const post = async (gateway: RunningGateway, body: unknown) => {
    const response = await fetch(gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  };
  const gatewayExecutions = async () =>
    Number(/^gateway_query_plan_executions_total\{executor="gateway"[^}]*\} (\d+)/m.exec(await (await fetch(ours.metricsUrl)).text())?.[1] ?? 0);

  /** Sends `body` to both; ours twice, the second time through its own executor. */
  const compare = async (body: unknown) => {
    const expected = await post(apollos, body);
    await post(ours, body);
    const before = await gatewayExecutions();
    const actual = await post(ours, body);
    expect(actual.text).toBe(expected.text);
    expect(actual.status).toBe(expected.status);
    expect(actual.contentType).toBe(expected.contentType);
    return { expected, ranOurs: (await gatewayExecutions()) > before };
  };

  it("the benchmark's big and small queries", async () => {
    faults.rate = 0;
    for (const query of [bigQuery, smallQuery]) {
      const { expected, ranOurs } = await compare({ query });
      expect(ranOurs).toBe(true);
      expect(JSON.parse(expected.text).errors).toBeUndefined();
    }
  });

  it("the benchmark's queries with subgraphs failing and answering null in places", async () => {
    let withErrors = 0;
    for (let seed = 1; seed <= 12; seed += 1) {
      Object.assign(faults, { seed, rate: 0.05 });
      for (const query of [bigQuery, smallQuery]) {
        const { expected } = await compare({ query });
        if (expected.text.includes('"errors"') || expected.text.includes("valueCompletion")) withErrors += 1;
      }
    }
    // The faults did reach answers: errors, and nulls bubbling up where the schema forbids them.
    expect(withErrors).toBeGreaterThan(6);
  });

  it("generated operations: random selections, aliases, fragments, @skip/@include, variables, failing subgraphs", async () => {
    let gatewayRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryBenchmarkOperation(),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(0, 0.02, 0.1, 0.3),
        async (operation, seed, rate) => {
          Object.assign(faults, { seed, rate });
          const { ranOurs } = await compare(operation);
          if (ranOurs) gatewayRuns += 1;
        },
      ),
      { numRuns: 150 },
    );
    // Most operations are planned and then run by the gateway's executor (the others: refused by validation or a limit).
    expect(gatewayRuns).toBeGreaterThan(75);
    // 150 operations, each sent three times: about 30 s on an idle machine, several times that at a CI load of 3 to 8.
  }, 300_000);
});

/** FNV-1a: a stable hash, so a seed decides the same faults in every process and on every call. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}
