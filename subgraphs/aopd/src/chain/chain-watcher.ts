import { ConflictError } from "@compliance-graph/errors";
import type { AssetRegistry } from "@compliance-graph/dti-assets";
import type { Logger } from "@compliance-graph/server-kit";
import type { Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../ingestion/change-proof-status.js";
import { ChainBackoff, type ChainWatcherStats } from "./chain-backoff.js";
import { ChainConnectionError } from "./chain-connection-error.js";
import { claimProofsForChainCheck } from "./claim-proofs-for-chain-check.js";
import { assetsCheckedBy, type ChainChecksConfig, type ChainConnection } from "./chain-checks-config.js";
import { judgeSatoshiTransaction, type SatoshiVerdict } from "./judge-satoshi-transaction.js";

interface WatchedNetwork {
  connection: ChainConnection;
  /** The asset codes this connection checks. */
  assets: string[];
  backoff: ChainBackoff;
}

/**
 * Checks SUBMITTED Satoshi proofs on chain, one network at a time, and writes the verdicts. Each
 * replica runs one (see start-aopd.ts); the claim's lease keeps them from checking a proof twice,
 * and each network backs off on its own when its connection fails.
 */
export class ChainWatcher {
  readonly #networks: WatchedNetwork[];

  constructor(
    private readonly db: Kysely<AopdDatabase>,
    private readonly assets: AssetRegistry,
    private readonly chain: ChainChecksConfig,
    private readonly logger: Logger,
  ) {
    this.#networks = chain.connections.map((connection) => ({ connection, assets: assetsCheckedBy(assets, chain, connection.network), backoff: new ChainBackoff(connection.network) }));
  }

  /** A copy of each network's state and counters. */
  stats(): ChainWatcherStats[] {
    return this.#networks.map(({ backoff }) => ({ ...backoff.stats }));
  }

  /** The networks whose connection is failing now: readiness reports them as degraded. */
  degraded(): string[] {
    return this.#networks.filter(({ backoff }) => backoff.stats.state === "backing_off").map(({ connection }) => `${connection.network} chain connection`);
  }

  /** One pass over every network not backing off; true when a network left a full batch behind. */
  async pass(): Promise<boolean> {
    const full = await Promise.all(this.#networks.map((network) => this.#passOf(network)));
    return full.some(Boolean);
  }

  async #passOf({ connection, assets, backoff }: WatchedNetwork): Promise<boolean> {
    if (!backoff.mayRequest()) return false;
    const proofs = await claimProofsForChainCheck(this.db, assets, this.chain.batchSize, this.chain.recheckSeconds);
    const queue = [...proofs];
    let failure: ChainConnectionError | undefined;
    const worker = async () => {
      for (let proof = queue.shift(); proof && !failure; proof = queue.shift()) {
        const asset = this.assets.get(proof.asset);
        try {
          const request = {
            family: asset?.addressFamily ?? null,
            senderAddress: proof.address ?? "",
            depositAddress: proof.deposit_address ?? "",
            amount: BigInt(proof.amount ?? "0"),
            requiredConfirmations: connection.confirmations,
          };
          const verdict = judgeSatoshiTransaction(request, await connection.client.transaction(proof.tx_id ?? "", asset?.contract ?? null));
          backoff.stats.checks++;
          backoff.stats[verdict.outcome]++;
          await this.#record(proof, verdict);
        } catch (error) {
          if (!(error instanceof ChainConnectionError)) throw error;
          failure = error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.chain.concurrency, queue.length) }, worker));
    if (failure) {
      const wasOk = backoff.stats.state === "ok";
      backoff.failed(failure);
      if (wasOk) this.logger.warn({ network: connection.network, code: failure.code, retryAt: backoff.stats.retryAt }, `${failure.message} Checks back off.`);
      return false;
    }
    if (proofs.length > 0 && backoff.stats.state !== "ok") this.logger.info({ network: connection.network }, `The ${connection.network} chain connection answers again.`);
    if (proofs.length > 0) backoff.succeeded();
    return proofs.length === this.chain.batchSize;
  }

  /** Writes a verdict: a status change through the state machine's one path, or the progress of a waiting proof. */
  async #record(proof: ProofRow, verdict: SatoshiVerdict): Promise<void> {
    const found = { block_height: verdict.blockHeight, confirmations: verdict.confirmations };
    if (verdict.outcome === "waiting") {
      await this.db.updateTable("aopd_proof").set(found).where("id", "=", proof.id).where("status", "=", "SUBMITTED").execute();
      return;
    }
    try {
      await changeProofStatus(this.db, proof.id, {
        action: "assessed on chain",
        kind: "satoshi",
        from: ["SUBMITTED"],
        set:
          verdict.outcome === "verified"
            ? { status: "VERIFIED", assessment: "VERIFIED", ...found }
            : { status: "FAILED", assessment: "FAILED", failure_reason: verdict.reason, ...found },
      });
    } catch (error) {
      // An officer assessed it meanwhile: their assessment stands.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}
