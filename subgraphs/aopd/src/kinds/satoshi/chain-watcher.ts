import type { AssetRegistry } from "@compliance-graph/dti-assets";
import type { Logger } from "@compliance-graph/process-shell";
import type { Kysely, UpdateObject } from "kysely";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { changeProofStatus } from "../../proofs/change-proof-status.js";
import { isMovedOn } from "../../proofs/proof-refusal.js";
import { submissionOf } from "./satoshi-proof-transitions.js";
import { decideProof } from "../../decisions/decide-proof.js";
import { chainWatcherDecider } from "../../audit/decider.js";
import { ChainBackoff, type ChainWatcherStats } from "../../chain/chain-backoff.js";
import { ChainConnectionError } from "../../chain/chain-connection-error.js";
import { chainFindingColumns } from "./chain-finding.js";
import type { ChainTransaction } from "../../chain/chain-transaction.js";
import { claimProofsForChainCheck } from "./claim-proofs-for-chain-check.js";
import { assetsCheckedBy, type ChainChecksConfig, type ChainConnection } from "../../chain/chain-checks-config.js";
import { judgeSatoshiTransaction, type SatoshiRequest, type SatoshiVerdict } from "./judge-satoshi-transaction.js";

interface WatchedNetwork {
  connection: ChainConnection;
  /** The asset codes this connection checks. */
  assets: string[];
  backoff: ChainBackoff;
}

/**
 * Checks SUBMITTED Satoshi proofs on chain, one network at a time, and writes the verdicts; with
 * `watchPending`, also looks for the test transaction of PENDING proofs on their deposit address.
 * Each replica runs one (see start-aopd.ts); the claim's lease keeps them from checking a proof
 * twice, and each network backs off on its own when its connection fails.
 */
export class ChainWatcher {
  readonly #networks: WatchedNetwork[];

  constructor(
    private readonly db: Kysely<AopdDatabase>,
    private readonly assets: AssetRegistry,
    private readonly chain: ChainChecksConfig,
    private readonly logger: Logger,
  ) {
    this.#networks = chain.connections.map((connection) => ({
      connection,
      assets: assetsCheckedBy(assets, chain, connection.network),
      backoff: new ChainBackoff(connection.network),
    }));
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

  async #passOf(network: WatchedNetwork): Promise<boolean> {
    const { connection, backoff } = network;
    if (!backoff.mayRequest()) return false;
    let asked = 0;
    let full = false;
    try {
      const submitted = await claimProofsForChainCheck(this.db, "SUBMITTED", network.assets, this.chain.batchSize, this.chain.recheckSeconds);
      asked += submitted.length;
      await this.#inParallel(submitted, (proof) => this.#check(network, proof));
      full = submitted.length === this.chain.batchSize;
      if (this.chain.watchPending) {
        const pending = await claimProofsForChainCheck(this.db, "PENDING", network.assets, this.chain.batchSize, this.chain.recheckSeconds);
        asked += pending.length;
        await this.#inParallel(pending, (proof) => this.#watchDeposit(network, proof));
        full ||= pending.length === this.chain.batchSize;
      }
    } catch (error) {
      if (!(error instanceof ChainConnectionError)) throw error;
      const wasOk = backoff.stats.state === "ok";
      backoff.failed(error);
      if (wasOk) this.logger.warn({ network: connection.network, code: error.code, retryAt: backoff.stats.retryAt }, `${error.message} Checks back off.`);
      return false;
    }
    if (asked > 0 && backoff.stats.state !== "ok")
      this.logger.info({ network: connection.network }, `The ${connection.network} chain connection answers again.`);
    if (asked > 0) backoff.succeeded();
    return full;
  }

  /**
   * Runs `work` over the proofs, `concurrency` at a time. The first connection failure stops
   * the rest (they are taken again once the lease runs out) and is thrown when all have stopped.
   */
  async #inParallel(proofs: ProofRow[], work: (proof: ProofRow) => Promise<void>): Promise<void> {
    const queue = [...proofs];
    let failure: ChainConnectionError | undefined;
    const worker = async () => {
      for (let proof = queue.shift(); proof && !failure; proof = queue.shift()) {
        try {
          await work(proof);
        } catch (error) {
          if (!(error instanceof ChainConnectionError)) throw error;
          failure = error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.chain.concurrency, queue.length) }, worker));
    if (failure) throw failure;
  }

  #requestOf(connection: ChainConnection, proof: ProofRow): SatoshiRequest {
    return {
      family: this.assets.get(proof.asset)?.addressFamily ?? null,
      senderAddress: proof.address ?? "",
      depositAddress: proof.deposit_address ?? "",
      amount: BigInt(proof.amount ?? "0"),
      requiredConfirmations: connection.confirmations,
    };
  }

  /** A SUBMITTED proof: looks its transaction up and records the verdict. */
  async #check({ connection, backoff }: WatchedNetwork, proof: ProofRow): Promise<void> {
    const tx = await connection.client.transaction(proof.tx_id ?? "", this.assets.get(proof.asset)?.contract ?? null);
    const request = this.#requestOf(connection, proof);
    const verdict = judgeSatoshiTransaction(request, tx);
    backoff.stats.checks++;
    backoff.stats[verdict.outcome]++;
    await this.#record(proof, verdict, this.#findingOf(request, proof, tx));
  }

  /**
   * A PENDING proof: looks for its test transaction on the deposit address. The first transaction
   * the judge does not contradict (the exact amount, from the sender, in a block) is taken as the
   * customer's: recorded as a submission would be, then judged like a reported one. Others (other
   * payers, other amounts) are not this proof's and do not fail it.
   */
  async #watchDeposit({ connection, backoff }: WatchedNetwork, proof: ProofRow): Promise<void> {
    const request = this.#requestOf(connection, proof);
    const scan = await connection.client.paymentsToDeposit({
      depositAddress: request.depositAddress,
      senderAddress: request.senderAddress,
      amount: request.amount,
      contract: this.assets.get(proof.asset)?.contract ?? null,
      since: proof.created_at,
      cursor: proof.chain_scan_cursor,
      confirmations: connection.confirmations,
    });
    backoff.stats.depositWatches++;
    const match = scan.candidates.map((tx) => ({ tx, verdict: judgeSatoshiTransaction(request, tx) })).find(({ verdict }) => verdict.outcome !== "failed");
    if (!match) {
      if (scan.cursor !== proof.chain_scan_cursor) {
        await this.db.updateTable("aopd_proof").set({ chain_scan_cursor: scan.cursor }).where("id", "=", proof.id).where("status", "=", "PENDING").execute();
      }
      return;
    }
    let submitted: ProofRow;
    try {
      submitted = await changeProofStatus(this.db, proof.id, {
        action: "matched on chain",
        kind: "satoshi",
        from: ["PENDING"],
        beforeDue: true,
        set: { ...submissionOf(match.tx.txId), chain_scan_cursor: scan.cursor },
        audit: { origin: { actor: chainWatcherDecider, requestId: null }, action: "MATCHED_ON_CHAIN", details: { txId: match.tx.txId } },
      });
    } catch (error) {
      // The customer reported a transaction meanwhile, or the proof fell due: theirs stands.
      if (isMovedOn(error)) return;
      throw error;
    }
    backoff.stats.matched++;
    backoff.stats.checks++;
    backoff.stats[match.verdict.outcome]++;
    this.logger.info(
      { network: connection.network, proof: proof.id, txId: match.tx.txId },
      "a pending Satoshi proof's test transaction was found on its deposit address",
    );
    await this.#record(submitted, match.verdict, this.#findingOf(request, proof, match.tx));
  }

  /** What the check found, as the proof row keeps it; all null (0 confirmations) while the transaction is in no block. */
  #findingOf(request: SatoshiRequest, proof: ProofRow, tx: ChainTransaction | null): UpdateObject<AopdDatabase, "aopd_proof"> {
    const finding = chainFindingColumns(request, tx, this.assets.get(proof.asset)?.decimals ?? null);
    return finding ?? { block_height: null, block_hash: null, confirmations: 0, amount_received: null, amount_received_units: null, transaction_senders: null };
  }

  /**
   * Writes a verdict: a status change through the state machine's one path, or the progress of a
   * waiting proof; with either, what the check found (`found`, chain-finding.ts).
   */
  async #record(proof: ProofRow, verdict: SatoshiVerdict, found: UpdateObject<AopdDatabase, "aopd_proof">): Promise<void> {
    if (verdict.outcome === "waiting") {
      // Not on a proof an officer reopened meanwhile (its check window is cleared): its finding stays as it was.
      await this.db
        .updateTable("aopd_proof")
        .set(found)
        .where("id", "=", proof.id)
        .where("status", "=", "SUBMITTED")
        .where("chain_check_until", "is not", null)
        .execute();
      return;
    }
    try {
      // Decided as the system, named as such in the decision (see decider.ts).
      await decideProof(
        this.db,
        verdict.outcome === "verified"
          ? {
              kind: "satoshi",
              id: proof.id,
              outcome: "VERIFIED",
              reason: null,
              reasonText: null,
              comment: null,
              decider: chainWatcherDecider,
              requestId: null,
              alsoSet: found,
            }
          : {
              kind: "satoshi",
              id: proof.id,
              outcome: "FAILED",
              reason: verdict.code,
              reasonText: verdict.reason,
              comment: null,
              decider: chainWatcherDecider,
              requestId: null,
              alsoSet: { failure_reason: verdict.reason, ...found },
            },
      );
    } catch (error) {
      // An officer assessed it meanwhile: their assessment stands.
      if (!isMovedOn(error)) throw error;
    }
  }
}
