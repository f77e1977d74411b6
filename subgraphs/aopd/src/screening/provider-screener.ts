import type { Logger } from "@compliance-graph/process-shell";
import { sql, type Kysely } from "kysely";
import { ChainBackoff } from "../chain/chain-backoff.js";
import type { ChainConnectionError } from "../chain/chain-connection-error.js";
import type { AopdDatabase } from "../database/database-schema.js";
import type { ScreeningProviderConfig } from "./screening-config.js";
import { ScreeningProviderError } from "./screening-provider-error.js";

export interface ProviderScreenerStats {
  provider: string;
  state: "ok" | "backing_off";
  consecutiveFailures: number;
  lastFailure: string | null;
  retryAt: Date | null;
  screened: number;
  listed: number;
}

/**
 * Asks the commercial screening provider about every proof whose address is known and that it has
 * not answered for, a batch per pass (`startRepeatingJob` runs the passes), so that the request
 * paths never wait on a third party: the list's screening is immediate, the provider's follows
 * within an interval. Replicas share the queue through a lease (`provider_screening_taken_at`).
 * A failing provider is backed off exponentially (as a chain connection is, `ChainBackoff`) and
 * reported as degraded by readiness; the proofs stay in the queue and are asked about once it
 * answers again. Errors name the provider only (never its URL or key).
 */
export class ProviderScreener {
  readonly #backoff: ChainBackoff;
  #screened = 0;
  #listed = 0;

  constructor(
    private readonly db: Kysely<AopdDatabase>,
    private readonly config: ScreeningProviderConfig,
    private readonly logger: Logger,
  ) {
    this.#backoff = new ChainBackoff(config.client.name);
  }

  /** The provider's name while it is failing: readiness reports it as degraded. */
  degraded(): string[] {
    return this.#backoff.stats.state === "backing_off" ? [`screening provider ${this.config.client.name}`] : [];
  }

  stats(): ProviderScreenerStats {
    const { state, consecutiveFailures, lastFailure, retryAt } = this.#backoff.stats;
    return { provider: this.config.client.name, state, consecutiveFailures, lastFailure, retryAt, screened: this.#screened, listed: this.#listed };
  }

  /**
   * One pass: takes up to a batch of proofs and asks about each (at most `concurrency` at once).
   * Returns whether it left work behind (a full batch, all answered), so the next pass starts at once.
   */
  async pass(): Promise<boolean> {
    if (!this.#backoff.mayRequest()) return false;
    const { rows } = await sql<{ id: string; address: string }>`
      UPDATE aopd_proof SET provider_screening_taken_at = now()
      WHERE id IN (
        SELECT id FROM aopd_proof
        WHERE address IS NOT NULL AND provider_screened_at IS NULL
          AND (provider_screening_taken_at IS NULL OR provider_screening_taken_at < now() - make_interval(secs => ${this.config.retrySeconds}))
        ORDER BY provider_screening_taken_at NULLS FIRST
        LIMIT ${this.config.batchSize}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, address
    `.execute(this.db);
    let answered = 0;
    const unanswered = new Set(rows.map((row) => row.id));
    const queue = [...rows];
    const worker = async () => {
      for (let proof = queue.shift(); proof; proof = queue.shift()) {
        if (!this.#backoff.mayRequest()) return;
        try {
          const identifications = await this.config.client.screen(proof.address);
          this.#backoff.succeeded();
          const listed = identifications.length > 0;
          await this.db
            .updateTable("aopd_proof")
            .set({
              provider_screening_status: listed ? "LISTED" : "CLEAR",
              provider_screening_name: this.config.client.name,
              provider_screened_at: sql<Date>`now()`,
              provider_identifications: JSON.stringify(identifications),
            })
            .where("id", "=", proof.id)
            .where("address", "=", proof.address)
            .execute();
          answered += 1;
          unanswered.delete(proof.id);
          this.#screened += 1;
          if (listed) this.#listed += 1;
        } catch (error) {
          if (!(error instanceof ScreeningProviderError)) throw error;
          // The backoff reads the code and the provider's Retry-After only; the codes differ in name, not in meaning.
          this.#backoff.failed({ code: error.code, retryAfterMs: error.retryAfterMs } as unknown as ChainConnectionError);
          this.logger.warn({ provider: error.provider, code: error.code, retryAt: this.#backoff.stats.retryAt }, "the screening provider failed; backing off");
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.config.concurrency, rows.length) }, worker));
    // What a failure left unasked goes back to the queue at once: the backoff, not the lease, decides when to ask again.
    if (unanswered.size > 0) {
      await this.db
        .updateTable("aopd_proof")
        .set({ provider_screening_taken_at: null })
        .where("id", "in", [...unanswered])
        .where("provider_screened_at", "is", null)
        .execute();
    }
    return rows.length === this.config.batchSize && answered === rows.length;
  }
}
