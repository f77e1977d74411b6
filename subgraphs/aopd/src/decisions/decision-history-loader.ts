import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { toDecision, type Decision } from "../proofs/decision.js";

/**
 * The decision histories one request asks for, read in one query however many proofs a page
 * holds: each `decisions` field asks for its proof's history, and the asks of one tick of the
 * event loop (the fields of one page are resolved together) are answered by one `IN` query.
 */
export class DecisionHistoryLoader {
  #pending = new Map<string, { resolve: (decisions: Decision[]) => void; reject: (error: unknown) => void }[]>();
  #scheduled = false;

  constructor(private readonly db: Kysely<AopdDatabase>) {}

  load(proofId: string): Promise<Decision[]> {
    return new Promise((resolve, reject) => {
      const waiting = this.#pending.get(proofId) ?? [];
      waiting.push({ resolve, reject });
      this.#pending.set(proofId, waiting);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    this.#scheduled = false;
    try {
      const rows = await this.db
        .selectFrom("aopd_proof_decision")
        .selectAll()
        .where("proof_id", "in", [...batch.keys()])
        .orderBy("recorded")
        .execute();
      const byProof = new Map<string, Decision[]>();
      for (const row of rows) {
        const list = byProof.get(row.proof_id) ?? [];
        list.push(toDecision(row));
        byProof.set(row.proof_id, list);
      }
      for (const [proofId, waiting] of batch) for (const { resolve } of waiting) resolve(byProof.get(proofId) ?? []);
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  }
}

const loaders = new WeakMap<object, DecisionHistoryLoader>();

/** The loader of one request (keyed by its context object, so it lives exactly as long as the request). */
export function decisionHistoryLoaderOf(context: { db: Kysely<AopdDatabase> }): DecisionHistoryLoader {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DecisionHistoryLoader(context.db);
    loaders.set(context, loader);
  }
  return loader;
}
