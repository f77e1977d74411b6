import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { aopdConfigFromEnv, startAopd } from "@compliance-graph/aopd";
import { anvilAccounts, erc1271WalletBytecode, ethereumAddressOf, signPersonalMessage, startLocalAnvil, testSecretKey } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const ownerKey = testSecretKey("bench contract wallet owner");
/** A CREATE2 factory (salt 0) whose calldata is the init code it deploys (as in counterfactual-account-signature.test.ts). */
const factoryBytecode = "0x600f600a5f39600f5ff3365f5f375f365f5ff55f5260205ff3";
const erc6492Suffix = "6492649264926492649264926492649264926492649264926492649264926492";
const word = (hex: string) => hex.padStart(64, "0");
const abiBytes = (hex: string) => `${word((hex.length / 2).toString(16))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, "0")}`;

/** ERC-6492's wrapped signature: abi.encode(factory, initCode, signature) and the magic suffix. */
function wrappedSignature(factory: string, initCode: string, signature: string): string {
  const code = initCode.slice(2);
  const inner = signature.slice(2);
  const codeAt = 96;
  const innerAt = codeAt + 32 + Math.ceil(code.length / 64) * 32;
  return `0x${word(factory.slice(2).toLowerCase())}${word(codeAt.toString(16))}${word(innerAt.toString(16))}${abiBytes(code)}${abiBytes(inner)}${erc6492Suffix}`;
}

/** The CREATE2 address of `initCode` deployed by `factory` with salt 0. */
function create2Address(factory: string, initCode: string): string {
  const hash = keccak_256(hexToBytes(`ff${factory.slice(2).toLowerCase()}${word("")}${bytesToHex(keccak_256(hexToBytes(initCode.slice(2))))}`));
  return `0x${bytesToHex(hash.slice(12))}`;
}

/**
 * What a smart-contract wallet's signature (ERC-1271) costs beside a key's: verified submissions
 * through the portal API on one aopd (PostgreSQL server), each a fresh proof, for an ordinary
 * Ethereum address (ecrecover alone) and for a wallet contract on a local anvil node (ecrecover
 * fails, then `eth_blockNumber` and an `eth_call` of `isValidSignature` through the chain
 * connection), for a counterfactual account (ERC-6492: a deployless validator call that deploys
 * the account inside it), and for a key signing the proof's sign-in message (EIP-4361, read from
 * the portal and submitted as a signed-message block). The node is local: a provider across the
 * internet adds its round trips.
 */
async function contractWalletTable(quick: boolean): Promise<BenchmarkTable> {
  const anvil = await startLocalAnvil();
  const databaseUrl = await freshBenchDatabase("aopd_bench_contract_wallets");
  const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "0" });
  const aopd = await startAopd({
    config: {
      port: 0,
      databaseUrl,
      expiryIntervalSeconds: 0,
      chain,
      rateLimitPerClient: 0,
      rateLimitPerCredential: 0,
      readRateLimitPerClient: 0,
      readRateLimitPerCredential: 0,
    },
    insecureDevelopmentIdentity: true,
  });
  const origin = new URL(aopd.url).origin;
  try {
    const contract = await anvil.deploy(anvilAccounts[0], erc1271WalletBytecode(ethereumAddressOf(ownerKey)));
    const factory = await anvil.deploy(anvilAccounts[0], factoryBytecode);
    const initCode = erc1271WalletBytecode(ethereumAddressOf(ownerKey));
    const counterfactual = create2Address(factory, initCode);
    const personalSign = (message: string) => `0x${bytesToHex(signPersonalMessage(ownerKey, message))}`;
    type Signing = (proof: { token: string; message: string }) => Promise<string>;
    const request = async (address: string, sign: Signing) => {
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
      const token = portalUrl.split("/").pop()!;
      return { token, signature: await sign({ token, message: proof.message }) };
    };
    const count = quick ? 100 : 1_000;
    const concurrency = 8;
    const measure = async (address: string, sign: Signing = async ({ message }) => personalSign(message)) => {
      const proofs: { token: string; signature: string }[] = [];
      for (let i = 0; i < count; i += 1) proofs.push(await request(address, sign));
      const samples: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < proofs.length) {
            const proof = proofs[next++]!;
            const t = performance.now();
            const answer = await fetch(`${origin}/portal/api/proof/${proof.token}/signature`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ signature: proof.signature }),
            });
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
    const viaCounterfactual = await measure(counterfactual, async ({ message }) => wrappedSignature(factory, initCode, personalSign(message)));
    const signIn = await measure(ethereumAddressOf(ownerKey), async ({ token }) => {
      const view = (await (await fetch(`${origin}/portal/api/proof/${token}`)).json()) as { signature: { signInMessage: string } };
      const msg = view.signature.signInMessage;
      return JSON.stringify({ address: ethereumAddressOf(ownerKey), msg, sig: personalSign(msg) });
    });
    return {
      title:
        "Smart-contract wallet (ERC-1271), counterfactual account (ERC-6492) and sign-in message (EIP-4361) signatures beside a key's, through the portal API",
      method: `${count} fresh proofs per row (requested beforehand), each owner signature posted once, ${concurrency} at a time, to one aopd on PostgreSQL; the contract on a local anvil node. Rate limits off; loopback.`,
      columns: ["signature of", "verified/s", "p50 ms", "p99 ms"],
      rows: [
        ["an ordinary address (ecrecover)", ...key],
        ["a wallet contract (ecrecover, then isValidSignature on the node)", ...viaContract],
        ["a counterfactual account (ERC-6492: deployless validator call on the node)", ...viaCounterfactual],
        ["an ordinary address over its sign-in message (EIP-4361 fields checked, nonce looked up)", ...signIn],
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
