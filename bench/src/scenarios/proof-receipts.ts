import os from "node:os";
import { performance } from "node:perf_hooks";
import { aopdConfigFromEnv } from "@compliance-graph/aopd";
import { migrateToLatest, openDatabase } from "@compliance-graph/aopd/internals";
import { issueProofReceipt, loadReceiptSigningKeys, ReceiptSigner, verifyProofReceipt } from "@compliance-graph/aopd/internals";
import { createLocalJWKSet, exportJWK, generateKeyPair } from "jose";
import { sql } from "kysely";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";

/** Runs `work` over `items`, `concurrency` at a time; returns the seconds it took. */
async function timed<T>(items: T[], concurrency: number, work: (item: T) => Promise<unknown>): Promise<number> {
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
  return (performance.now() - started) / 1_000;
}

/**
 * Receipts signed and verified per second (docs/receipts.md): `issueProofReceipt` as the
 * `proofReceipt` resolver calls it (one row read from PostgreSQL, the statement built, ES256
 * signed), one at a time and 8 in flight; then verification of those receipts as an outsider does
 * it (`verifyProofReceipt`: jose's jwtVerify with a local key set of two keys), one process.
 */
export const proofReceiptsScenario: BenchmarkScenario = {
  name: "proof-receipts",
  async run({ quick }) {
    const count = quick ? 200 : 5_000;
    const database = await openDatabase({ databaseUrl: await freshBenchDatabase("bench_proof_receipts"), maxConnections: 8 });
    try {
      await migrateToLatest(database.db);
      const config = aopdConfigFromEnv({});
      const [current, previous] = await Promise.all([generateKeyPair("ES256", { extractable: true }), generateKeyPair("ES256", { extractable: true })]);
      const receiptConfig = {
        signingKey: JSON.stringify({ ...(await exportJWK(current.privateKey)), kid: "bench-current" }),
        previousKeys: JSON.stringify([{ ...(await exportJWK(previous.publicKey)), kid: "bench-previous" }]),
        issuer: "https://bench.example",
        validityDays: 365,
        forListed: "refuse" as const,
      };
      const keys = await loadReceiptSigningKeys(receiptConfig, true);
      const signer = new ReceiptSigner(keys, receiptConfig);
      // VERIFIED Satoshi proofs decided by an officer, as many as receipts are signed.
      await sql`
        INSERT INTO aopd_proof (kind, status, customer_id, asset, address, deposit_address, amount, tx_id, assessment,
                                decision_id, decision_action, decided_at, decider_subject, decider_client, decider_username, decider_system)
        SELECT 'satoshi', 'VERIFIED', 'RECEIPT-' || n, 'DTI4H95J0R2X', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h',
               10000 + n, lpad(to_hex(n), 64, '0'), 'VERIFIED', gen_random_uuid(), 'DECIDED', now(), 'officer-' || (n % 7), 'compliance-console', 'officer', false
        FROM generate_series(1, ${count}) AS n
      `.execute(database.db);
      const ids = (await database.db.selectFrom("aopd_proof").select("id").execute()).map((row) => row.id);

      const receipts: string[] = [];
      const sequentialSeconds = await timed(ids, 1, async (id) =>
        receipts.push((await issueProofReceipt(database.db, config.assets, signer, receiptConfig, id)).jws),
      );
      const parallelSeconds = await timed(ids, 8, (id) => issueProofReceipt(database.db, config.assets, signer, receiptConfig, id));
      const keySet = createLocalJWKSet(keys.jwks);
      const verifySeconds = await timed(receipts, 1, (jws) => verifyProofReceipt(jws, keySet, { issuer: receiptConfig.issuer }));
      const statement = (await verifyProofReceipt(receipts[0]!, keySet)).statement;
      const signOnlySeconds = await timed(ids, 1, () => signer.sign(statement));
      const [load1] = os.loadavg();
      return [
        {
          title: "Proof receipts signed and verified",
          method: `${count.toLocaleString("en")} VERIFIED Satoshi proofs on PostgreSQL on this machine. Signing: issueProofReceipt (the proofReceipt resolver's work without GraphQL: in one transaction the row read under a share lock, the statement built, an ES256 JWS signed by jose, the receipt recorded for its status), one at a time, then 8 in flight on a pool of 8 connections; and the signature alone (one statement signed ${count.toLocaleString("en")} times). Verifying: verifyProofReceipt (jose jwtVerify, ES256, typ, iss, exp) of each receipt against a local key set of two keys, one at a time. One process; load average (1 min) at the end: ${load1?.toFixed(2)}.`,
          columns: ["measure", "per second"],
          rows: [
            ["receipts issued (row read + sign), 1 in flight", (count / sequentialSeconds).toFixed(0)],
            ["receipts issued (row read + sign), 8 in flight", (count / parallelSeconds).toFixed(0)],
            ["statements signed (ES256 only)", (count / signOnlySeconds).toFixed(0)],
            ["receipts verified (ES256, local key set)", (count / verifySeconds).toFixed(0)],
          ],
          notes: [
            "jose signs and verifies through WebCrypto, whose ECDSA work Node runs on its thread pool: with 8 in flight, the reads and the signatures overlap, bounded by the machine's cores.",
            "Through /graphql each receipt adds the gateway, the internal token and Apollo's execution, as any query does (proof-queries scenario).",
          ],
        },
      ];
    } finally {
      await database.close();
    }
  },
};
