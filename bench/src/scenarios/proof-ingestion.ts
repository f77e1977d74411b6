import { base58, base64 } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { startAopd } from "@compliance-graph/aopd";
import { findXpubDerivation, parseBitcoinAddress, proofPsbt, verifyOwnershipSignature } from "@compliance-graph/aopd/ownership";
import {
  ethereumAddressOf,
  multisigVault,
  p2pkhAddress,
  signBip322Script,
  signPsbtAsCoordinator,
  taprootVault,
  vaultKeys,
  p2trAddress,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signBip322Taproot,
  signLegacy,
  signPersonalMessage,
  signSolanaMessage,
  signTronMessage,
  solanaAddressOf,
  taprootKeyPair,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const message = "I confirm that I control this address for CUST-000001. Nonce: 5f0c2a9e81d4b7c3a6e09f12";
const key = testSecretKey("bench");

function perSecond(operation: () => unknown, seconds: number): number {
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < deadline) {
    operation();
    count += 1;
  }
  return count / seconds;
}

/** Multisig vaults (BIP-322 over a script, and the proof's PSBT), signed by @scure/btc-signer. */
function vaultCases(): [string, Parameters<typeof verifyOwnershipSignature>[0]][] {
  const { secrets, publicKeys, xOnlyKeys } = vaultKeys("bench vault", 3);
  const p2wsh = multisigVault(2, publicKeys, { sorted: true });
  const multiA = taprootVault([{ multiA: { threshold: 2, xOnlyKeys } }]);
  const signers = [secrets[0]!, secrets[2]!];
  const address = parseBitcoinAddress(p2wsh.address!);
  if (!address.ok) throw new Error(address.reason);
  const psbt = signPsbtAsCoordinator(p2wsh, base64.encode(proofPsbt(address, message)), signers);
  return [
    ["BIP-322 2-of-3 P2WSH sortedmulti", { assetFamily: "bitcoin", address: p2wsh.address!, message, signature: signBip322Script(p2wsh, message, signers) }],
    [
      "BIP-322 2-of-3 Taproot multi_a leaf",
      { assetFamily: "bitcoin", address: multiA.address!, message, signature: signBip322Script(multiA, message, signers) },
    ],
    ["PSBT 2-of-3 P2WSH (partial signatures)", { assetFamily: "bitcoin", address: p2wsh.address!, message, signature: psbt }],
  ];
}

function verificationTable(seconds: number): BenchmarkTable {
  const p2pkh = p2pkhAddress(publicKeyOf(key));
  const p2wpkh = p2wpkhAddress(publicKeyOf(key));
  const p2tr = p2trAddress(taprootKeyPair(key).outputKey);
  const ether = ethereumAddressOf(key);
  const cases: [string, Parameters<typeof verifyOwnershipSignature>[0]][] = [
    ["legacy P2PKH (Bitcoin Core)", { assetFamily: "bitcoin", address: p2pkh, message, signature: signLegacy(key, message, 31) }],
    ["BIP-137 P2WPKH", { assetFamily: "bitcoin", address: p2wpkh, message, signature: signLegacy(key, message, 39) }],
    ["BIP-322 simple P2WPKH", { assetFamily: "bitcoin", address: p2wpkh, message, signature: signBip322PublicKeyHash(key, p2wpkh, message) }],
    ["BIP-322 simple P2TR", { assetFamily: "bitcoin", address: p2tr, message, signature: signBip322Taproot(key, message) }],
    ...vaultCases(),
    ["EIP-191 personal_sign", { assetFamily: "ethereum", address: ether, message, signature: base64.encode(signPersonalMessage(key, message)) }],
    [
      "ed25519 signMessage (Solana)",
      { assetFamily: "solana", address: solanaAddressOf(key), message, signature: base58.encode(signSolanaMessage(key, message)) },
    ],
    ["TIP-191 signMessageV2 (TRON)", { assetFamily: "tron", address: tronAddressOf(key), message, signature: base64.encode(signTronMessage(key, message)) }],
  ];
  const rows: (string | number)[][] = cases.map(([name, input]) => {
    if (!verifyOwnershipSignature(input).ok) throw new Error(`${name} does not verify`);
    const rate = perSecond(() => verifyOwnershipSignature(input), seconds);
    return [name, Math.round(rate).toLocaleString("en"), (1000 / rate).toFixed(3)];
  });
  const account = HDKey.fromMasterSeed(testSecretKey("bench seed")).derive("m/84'/0'/0'");
  const last = p2wpkhAddress(account.deriveChild(1).deriveChild(100).publicKey!);
  const started = performance.now();
  if (!findXpubDerivation({ xpub: account.publicExtendedKey, address: last, maxIndex: 100 })) throw new Error("xpub search failed");
  const searchMs = performance.now() - started;
  rows.push(["xpub search, worst case at index 100 (both chains, every address form)", (1000 / searchMs).toFixed(1), searchMs.toFixed(1)]);
  return {
    title: "Signature verification, one core",
    method: `Each scheme verified repeatedly for ${seconds} s in one process (signatures made by a generated key); the xpub search finds the address at the last index it searches.`,
    columns: ["scheme", "verifications/s", "ms each"],
    rows,
  };
}

async function roundTripTable(count: number): Promise<BenchmarkTable> {
  const databaseUrl = await freshBenchDatabase("aopd_bench_ingestion");
  // Rate limits off: one client posting hundreds of callbacks a second is the point here.
  const aopd = await startAopd({
    config: { port: 0, databaseUrl, expiryIntervalSeconds: 0, rateLimitPerClient: 0, rateLimitPerCredential: 0 },
    insecureDevelopmentIdentity: true,
  });
  aopd.services.config.callbackBaseUrl = new URL("/aopp/callback", aopd.url).toString();
  const address = p2wpkhAddress(publicKeyOf(key));
  const post = async (url: string, body: unknown) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const roundTrip = async () => {
    const response = await post(aopd.url, {
      query: `mutation($a: String!) { aopd { requestAoppProof(input: { customerId: "C1", asset: DTI4H95J0R2X, expectedAddress: $a }) { aoppUri proof { message } } } }`,
      variables: { a: address },
    });
    const { data } = (await response.json()) as { data: { aopd: { requestAoppProof: { aoppUri: string; proof: { message: string } } } } };
    const { aoppUri, proof } = data.aopd.requestAoppProof;
    const callback = new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("callback")!;
    const answer = await post(callback, { version: 0, address, signature: signBip322PublicKeyHash(key, address, proof.message) });
    if (answer.status !== 204) throw new Error(`callback answered ${answer.status}`);
  };
  try {
    for (let i = 0; i < 20; i += 1) await roundTrip();
    const samples: number[] = [];
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      const t = performance.now();
      await roundTrip();
      samples.push(performance.now() - t);
    }
    const sequentialRate = count / ((performance.now() - started) / 1000);
    samples.sort((a, b) => a - b);
    const concurrency = 8;
    const parallelStarted = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = 0; i < count / concurrency; i += 1) await roundTrip();
      }),
    );
    const parallelRate = count / ((performance.now() - parallelStarted) / 1000);
    return {
      title: "AOPP round trip through the aopd subgraph (PostgreSQL server)",
      method: `requestAoppProof over HTTP, then the wallet's BIP-322 callback, ${count} times one after another and again ${concurrency} at a time; subgraph and client in one process.`,
      columns: ["mode", "proofs verified/s", "p50 ms", "p99 ms"],
      rows: [
        ["sequential", sequentialRate.toFixed(0), ms(percentile(samples, 50)), ms(percentile(samples, 99))],
        [`${concurrency} concurrent`, parallelRate.toFixed(0), "", ""],
      ],
    };
  } finally {
    await aopd.close();
  }
}

export const proofIngestionScenario: BenchmarkScenario = {
  name: "proof-ingestion",
  async run({ quick }) {
    return [verificationTable(quick ? 0.5 : 3), await roundTripTable(quick ? 80 : 800)];
  },
};
