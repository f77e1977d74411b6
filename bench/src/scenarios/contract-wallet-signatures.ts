import { bytesToHex } from "@noble/hashes/utils.js";
import { aopdConfigFromEnv, startAopd } from "@compliance-graph/aopd";
import { anvilAccounts, erc1271WalletBytecode, ethereumAddressOf, signPersonalMessage, startLocalAnvil, testSecretKey } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const ownerKey = testSecretKey("bench contract wallet owner");

/**
 * What a smart-contract wallet's signature (ERC-1271) costs beside a key's: verified submissions
 * through the portal API on one aopd (PostgreSQL server), each a fresh proof, for an ordinary
 * Ethereum address (ecrecover alone) and for a wallet contract on a local anvil node (ecrecover
 * fails, then `eth_blockNumber` and an `eth_call` of `isValidSignature` through the chain
 * connection). The node is local: a provider across the internet adds its round trips.
 */
async function contractWalletTable(quick: boolean): Promise<BenchmarkTable> {
  const anvil = await startLocalAnvil();
  const databaseUrl = await freshBenchDatabase("aopd_bench_contract_wallets");
  const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "0" });
  const aopd = await startAopd({
    config: { port: 0, databaseUrl, expiryIntervalSeconds: 0, chain, rateLimitPerClient: 0, rateLimitPerCredential: 0, readRateLimitPerClient: 0, readRateLimitPerCredential: 0 },
    insecureDevelopmentIdentity: true,
  });
  const origin = new URL(aopd.url).origin;
  try {
    const contract = await anvil.deploy(anvilAccounts[0], erc1271WalletBytecode(ethereumAddressOf(ownerKey)));
    const request = async (address: string) => {
      const response = await fetch(aopd.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `mutation($a: String!) { aopd { requestAoppProof(input: { customerId: "C1", asset: DTIX9J9K872S, expectedAddress: $a }) { portalUrl proof { message } } } }`,
          variables: { a: address },
        }),
      });
      const { data } = (await response.json()) as { data: { aopd: { requestAoppProof: { portalUrl: string; proof: { message: string } } } } };
      const { portalUrl, proof } = data.aopd.requestAoppProof;
      return { token: portalUrl.split("/").pop()!, signature: `0x${bytesToHex(signPersonalMessage(ownerKey, proof.message))}` };
    };
    const count = quick ? 100 : 1_000;
    const concurrency = 8;
    const measure = async (address: string) => {
      const proofs: { token: string; signature: string }[] = [];
      for (let i = 0; i < count; i += 1) proofs.push(await request(address));
      const samples: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < proofs.length) {
            const proof = proofs[next++]!;
            const t = performance.now();
            const answer = await fetch(`${origin}/portal/api/proof/${proof.token}/signature`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ signature: proof.signature }) });
            if (answer.status !== 200) throw new Error(`submission answered ${answer.status}: ${await answer.text()}`);
            await answer.arrayBuffer();
            samples.push(performance.now() - t);
          }
        }),
      );
      const rate = count / ((performance.now() - started) / 1000);
      samples.sort((a, b) => a - b);
      return [rate.toFixed(0), ms(percentile(samples, 50)), ms(percentile(samples, 99))];
    };
    const key = await measure(ethereumAddressOf(ownerKey));
    const viaContract = await measure(contract);
    return {
      title: "Smart-contract wallet signatures (ERC-1271) beside a key's, through the portal API",
      method: `${count} fresh proofs per row (requested beforehand), each owner signature posted once, ${concurrency} at a time, to one aopd on PostgreSQL; the contract on a local anvil node. Rate limits off; loopback.`,
      columns: ["signature of", "verified/s", "p50 ms", "p99 ms"],
      rows: [
        ["an ordinary address (ecrecover)", ...key],
        ["a wallet contract (ecrecover, then isValidSignature on the node)", ...viaContract],
      ],
    };
  } finally {
    await aopd.close();
    await anvil.close();
  }
}

export const contractWalletSignaturesScenario: BenchmarkScenario = {
  name: "contract-wallet-signatures",
  async run({ quick }) {
    return [await contractWalletTable(quick)];
  },
};
