import { HDKey } from "@scure/bip32";
import { openDatabase, migrateToLatest, seedProofs } from "@compliance-graph/aopd/internals";
import { freePort, p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, startProcess, testSecretKey } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const key = testSecretKey("flood");
const address = p2wpkhAddress(publicKeyOf(key));
const pageQuery = `{ aopd { proofs(limit: 50) { id createdAt address customerId asset comment status } } }`;

interface Callback {
  url: string;
  body: { version: 0; address: string; signature: string; xpub: string };
}

/**
 * The public callback under the worst submissions a wallet can send: a valid signature and an xpub
 * that does not derive the address, so aopd searches every child up to AOPD_XPUB_MAX_INDEX on both
 * chains and the proof stays pending. Meanwhile one client reads pages of proofs, one request at a
 * time; its latency with and without the flood is what compliance officers would feel.
 */
export const callbackFloodScenario: BenchmarkScenario = {
  name: "callback-flood",
  async run({ quick }) {
    const seconds = quick ? 4 : 12;
    const ratePerSecond = 50;
    const databaseUrl = await freshBenchDatabase("aopd_bench_flood");
    const database = await openDatabase({ databaseUrl });
    await migrateToLatest(database.db);
    await seedProofs(database, { count: 20_000, seed: 1 });
    await database.close();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Rate limits off: the flood measures what one replica does with the searches it lets in.
    const aopd = await startProcess(
      "subgraphs/aopd/src/main.ts",
      {
        AOPD_PORT: String(port),
        DATABASE_URL: databaseUrl,
        AOPD_EXPIRY_INTERVAL_SECONDS: "0",
        AOPD_RATE_LIMIT_PER_CLIENT: "0",
        AOPD_RATE_LIMIT_PER_CREDENTIAL: "0",
        AOPD_CALLBACK_BASE_URL: `${base}/aopp/callback`,
        INSECURE_DEVELOPMENT_IDENTITY: "true",
      },
      `${base}/health/ready`,
    );
    const graphql = async (query: string, variables?: unknown) => {
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const count = seconds * ratePerSecond;
    const pendingCallbacks = async (distinctXpubs: boolean): Promise<Callback[]> => {
      const callbacks: Callback[] = [];
      const sameXpub = HDKey.fromMasterSeed(testSecretKey("other wallet")).derive("m/84'/0'/0'").publicExtendedKey;
      for (let i = 0; i < count; i += 1) {
        const data = (await graphql(
          `
            mutation ($a: String!) {
              aopd {
                requestAoppProof(input: { customerId: "FLOOD", asset: DTI4H95J0R2X, expectedAddress: $a, xpubRequired: true }) {
                  aoppUri
                  proof {
                    message
                  }
                }
              }
            }
          `,
          { a: address },
        )) as {
          aopd: { requestAoppProof: { aoppUri: string; proof: { message: string } } };
        };
        const { aoppUri, proof } = data.aopd.requestAoppProof;
        const url = new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("callback")!;
        const xpub = distinctXpubs ? HDKey.fromMasterSeed(testSecretKey(`other wallet ${i}`)).derive("m/84'/0'/0'").publicExtendedKey : sameXpub;
        callbacks.push({ url, body: { version: 0, address, signature: signBip322PublicKeyHash(key, address, proof.message), xpub } });
      }
      return callbacks;
    };
    /** Pages read one after another for `seconds`, while `callbacks` (if any) arrive at the rate. */
    const readDuring = async (callbacks: Callback[]) => {
      const statuses = new Map<number, number>();
      const flood = callbacks.map(
        (callback, i) =>
          new Promise<void>((resolve) =>
            setTimeout(
              () => {
                fetch(callback.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(callback.body) })
                  .then((answer) => statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1))
                  .catch(() => statuses.set(0, (statuses.get(0) ?? 0) + 1))
                  .finally(resolve);
              },
              (i * 1000) / ratePerSecond,
            ),
          ),
      );
      const samples: number[] = [];
      const deadline = performance.now() + seconds * 1000;
      while (performance.now() < deadline) {
        const started = performance.now();
        await graphql(pageQuery);
        samples.push(performance.now() - started);
      }
      await Promise.all(flood);
      samples.sort((a, b) => a - b);
      return {
        samples,
        statuses:
          [...statuses]
            .sort()
            .map(([status, n]) => `${n}× ${status}`)
            .join(", ") || "none",
      };
    };
    try {
      for (let i = 0; i < 20; i += 1) await graphql(pageQuery);
      const distinct = await pendingCallbacks(true);
      const repeated = await pendingCallbacks(false);
      const quiet = await readDuring([]);
      const flooded = await readDuring(distinct);
      const replayed = await readDuring(repeated);
      const row = (name: string, run: { samples: number[]; statuses: string }) => [
        name,
        run.samples.length,
        ms(percentile(run.samples, 50)),
        ms(percentile(run.samples, 99)),
        (percentile(run.samples, 99) / percentile(quiet.samples, 99)).toFixed(2),
        run.statuses,
      ];
      const table: BenchmarkTable = {
        title: "Proof page reads while worst-case AOPP callbacks arrive",
        method: `aopd in its own process on PostgreSQL (20,000 proofs), rate limits off, AOPD_XPUB_MAX_INDEX and AOPD_XPUB_WORKERS at their defaults. One client reads \`proofs(limit: 50)\` one request at a time for ${seconds} s; meanwhile ${ratePerSecond} callbacks/s arrive, each a valid BIP-322 signature with an xpub that does not derive the address (a full search of both chains). "distinct" gives every callback its own xpub; "replayed" sends one xpub and address to every proof. Milliseconds.`,
        columns: ["callbacks", "reads", "read p50", "read p99", "p99 vs none", "callback answers"],
        rows: [row("none", quiet), row(`${ratePerSecond}/s, distinct xpubs`, flooded), row(`${ratePerSecond}/s, one xpub replayed`, replayed)],
        notes: ["Aim: read p99 under the flood within 2x of no flood."],
      };
      return [table];
    } finally {
      await aopd.stop();
    }
  },
};
