import { startAopd } from "@compliance-graph/aopd";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";
import { runAutocannon } from "../support/run-autocannon.js";

const key = testSecretKey("bench portal");
const address = p2wpkhAddress(publicKeyOf(key));

/**
 * Throughput of the portal's public API on one aopd (PostgreSQL server): the public view a page
 * reads, a verified signature submission (a fresh proof each, BIP-322 P2WPKH), and the retry of an
 * accepted one (idempotent answer). Rate limits are off here: they would measure themselves.
 */
async function portalTable(quick: boolean): Promise<BenchmarkTable> {
  const databaseUrl = await freshBenchDatabase("aopd_bench_portal");
  const aopd = await startAopd({
    config: {
      port: 0,
      databaseUrl,
      expiryIntervalSeconds: 0,
      rateLimitPerClient: 0,
      rateLimitPerCredential: 0,
      readRateLimitPerClient: 0,
      readRateLimitPerCredential: 0,
    },
    insecureDevelopmentIdentity: true,
  });
  const origin = new URL(aopd.url).origin;
  const request = async () => {
    const response = await fetch(aopd.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation($a: String!) { aopd { requestAoppProof(input: { customerId: "C1", asset: DTI4H95J0R2X, expectedAddress: $a }) { portalUrl proof { message } } } }`,
        variables: { a: address },
      }),
    });
    const { data } = (await response.json()) as { data: { aopd: { requestAoppProof: { portalUrl: string; proof: { message: string } } } } };
    const { portalUrl, proof } = data.aopd.requestAoppProof;
    return { token: portalUrl.split("/").pop()!, signature: signBip322PublicKeyHash(key, address, proof.message) };
  };
  const submit = (token: string, signature: string) =>
    fetch(`${origin}/portal/api/proof/${token}/signature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signature }),
    });
  try {
    const seconds = quick ? 3 : 10;
    const connections = 16;
    const viewed = await request();
    const view = await runAutocannon({ url: `${origin}/portal/api/proof/${viewed.token}`, method: "GET", headers: {}, connections, durationSeconds: seconds });

    const count = quick ? 160 : 1_600;
    const concurrency = 8;
    const proofs: { token: string; signature: string }[] = [];
    for (let i = 0; i < count; i += 1) proofs.push(await request());
    const samples: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < proofs.length) {
          const proof = proofs[next++]!;
          const t = performance.now();
          const answer = await submit(proof.token, proof.signature);
          if (answer.status !== 200) throw new Error(`submission answered ${answer.status}`);
          await answer.arrayBuffer();
          samples.push(performance.now() - t);
        }
      }),
    );
    const submitRate = count / ((performance.now() - started) / 1000);
    samples.sort((a, b) => a - b);

    const repeated = proofs[0]!;
    const retry = await runAutocannon({
      url: `${origin}/portal/api/proof/${repeated.token}/signature`,
      body: JSON.stringify({ signature: repeated.signature }),
      headers: { "content-type": "application/json" },
      connections,
      durationSeconds: seconds,
    });
    for (const result of [view, retry]) if (result.failures > 0) throw new Error(`${result.failures} failed requests`);
    return {
      title: "Portal public API on one aopd (PostgreSQL server)",
      method:
        `GET of the public view and the retry of an accepted signature: autocannon in its own process, ${connections} keep-alive connections, ${seconds} s. ` +
        `Verified submissions: ${count} fresh proofs (requested beforehand), each BIP-322 P2WPKH signature posted once, ${concurrency} at a time from the aopd process itself. Rate limits off; loopback.`,
      columns: ["request", "requests/s", "p50 ms", "p99 ms"],
      rows: [
        ["GET /portal/api/proof/<token>", view.requestsPerSecond.toFixed(0), ms(view.p50), ms(view.p99)],
        ["POST .../signature, verified", submitRate.toFixed(0), ms(percentile(samples, 50)), ms(percentile(samples, 99))],
        ["POST .../signature, retry of the accepted one", retry.requestsPerSecond.toFixed(0), ms(retry.p50), ms(retry.p99)],
      ],
    };
  } finally {
    await aopd.close();
  }
}

export const portalApiScenario: BenchmarkScenario = {
  name: "portal-api",
  async run({ quick }) {
    return [await portalTable(quick)];
  },
};
