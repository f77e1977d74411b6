import os from "node:os";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { importSanctionsList, migrateToLatest, openDatabase, screenAddress, type Database } from "@compliance-graph/aopd/internals";
import { keyAddressesOf, verifyOwnershipSignature, type KeyAddress } from "@compliance-graph/aopd/ownership";
import { newestBundledSanctionsList, readSanctionsList } from "@compliance-graph/sanctions-lists";
import { ethereumAddressOf, p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, signPersonalMessage, testSecretKey } from "@compliance-graph/test-kit";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { measureLatencyPair, ms, percentile } from "../support/latency.js";

const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const message = "Proof of control for the sibling screening benchmark.";

/**
 * Screening a signature proof's sibling addresses (docs/screening.md, "Sibling addresses") against
 * the newest bundled list (2025-11-19) on the PostgreSQL server: what a signature's acceptance adds
 * (deriving the key's addresses from the signature, then screening the proven address with them in
 * one `aopd_screen_addresses` call) beside screening the proven address alone. Each pair is called in
 * turn (with the address alone, with its siblings), so a burst of other work lands on both alike.
 */
export const siblingAddressScreeningScenario: BenchmarkScenario = {
  name: "sibling-address-screening",
  async run({ quick }) {
    const iterations = quick ? 300 : 3_000;
    const url = await freshBenchDatabase("aopd_bench_siblings");
    const database: Database = await openDatabase({ databaseUrl: url });
    try {
      await migrateToLatest(database.db);
      const list = await readSanctionsList([newestBundledSanctionsList()]);
      await importSanctionsList(database.db, AssetRegistry.load(), list);

      // Keys of their own per call, so that neither the derivation nor PostgreSQL answers from a cache of one address.
      const keys = Array.from({ length: 64 }, (_, i) => testSecretKey(`sibling bench ${i}`));
      const bitcoinProofs = keys.map((key) => {
        const address = p2wpkhAddress(publicKeyOf(key));
        return { assetFamily: "bitcoin" as const, asset: bitcoin, address, message, signature: signBip322PublicKeyHash(key, address, message) };
      });
      const evmProofs = keys.map((key) => ({
        assetFamily: "ethereum" as const,
        asset: ether,
        address: ethereumAddressOf(key),
        message,
        signature: `0x${Buffer.from(signPersonalMessage(key, message)).toString("hex")}`,
      }));

      // Acceptance verifies the signature first; the verifier's key comes with its result, so only what follows it is timed.
      const withKeys = <P extends Parameters<typeof verifyOwnershipSignature>[0]>(proofs: P[]) =>
        proofs.map((proof) => {
          const verification = verifyOwnershipSignature(proof);
          if (!verification.ok) throw new Error(`The bench's own signature does not verify: ${verification.reason}`);
          return { ...proof, signerKey: verification.signerKey };
        });
      const rows: string[][] = [];
      for (const [label, proofs] of [
        ["Bitcoin key (BIP-322 P2WPKH): P2PKH, P2WPKH, P2SH-P2WPKH", withKeys(bitcoinProofs)],
        ["secp256k1 key (EIP-191): EVM, TRON, BNB Beacon Chain", withKeys(evmProofs)],
      ] as const) {
        let call = 0;
        let siblings: KeyAddress[] = [];
        const [alone, withSiblings] = await measureLatencyPair(
          () => {
            const proof = proofs[call % proofs.length]!;
            return screenAddress(database.db, proof.asset, proof.address);
          },
          () => {
            const proof = proofs[call++ % proofs.length]!;
            siblings = keyAddressesOf(proof);
            return screenAddress(database.db, proof.asset, proof.address, siblings);
          },
          iterations,
          { warmup: 20 },
        );
        rows.push([
          label,
          `${siblings.length}`,
          `${ms(percentile(alone, 50))} / ${ms(percentile(alone, 99))} ms`,
          `${ms(percentile(withSiblings, 50))} / ${ms(percentile(withSiblings, 99))} ms`,
        ]);
      }
      const load = os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" ");
      return [
        {
          title: "Screening a proof's sibling addresses",
          method:
            `PostgreSQL server; the newest bundled list (2025-11-19, ${list.addresses.length} addresses) imported. ${iterations.toLocaleString("en")} calls of each, sequential, alternating; ` +
            "with siblings: the key's addresses derived from the key the verifier recovered or read (`keyAddressesOf`; the verification itself is done before and not timed) and the proven address screened with them (`aopd_screen_addresses`). " +
            `Load average at the end: ${load}.`,
          columns: ["key", "sibling addresses", "proven address alone p50 / p99", "with its siblings p50 / p99"],
          rows,
        },
      ];
    } finally {
      await database.close();
    }
  },
};
