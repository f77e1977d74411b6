import { Counter, type Registry } from "prom-client";

/**
 * The quotas' metrics, on the gateway's registry. `client` is bounded: a client named in
 * `GATEWAY_QUOTA_CLIENTS` by its id, every other client "other", so a flood of token clients
 * cannot grow the label set.
 */
export class QuotaMetrics {
  readonly refusals: Counter<"quota" | "client">;
  readonly syncs: Counter<"outcome">;

  constructor(registry: Registry) {
    const registers = [registry];
    this.refusals = new Counter({
      name: "gateway_quota_refusals_total",
      help: 'Requests refused by a quota, by quota (clientRequests, subjectRequests, clientCost, subjectCost) and client (configured clients by id, others "other").',
      labelNames: ["quota", "client"],
      registers,
    });
    this.syncs = new Counter({
      name: "gateway_quota_syncs_total",
      help: "Batches of quota counts exchanged with the quota database (GATEWAY_QUOTA_DATABASE_URL), by outcome (ok, error).",
      labelNames: ["outcome"],
      registers,
    });
  }
}
