/**
 * Quotas per client and per subject. Threat: one API client (or one user of it) that sends so
 * many requests, or such expensive ones, that everyone else behind the gateway waits, whether by
 * a bug, a runaway batch job or on purpose with a valid token. Every caller is counted after its
 * token is verified and before anything of its operation is planned or run, on every lane (HTTP
 * and both WebSocket subprotocols), by the client its token was issued to (`azp`) and by its
 * subject (`sub`) within that client, per fixed window. Over a quota it is refused with
 * RATE_LIMITED and told when the window ends; an operation that costs more than a whole window
 * allows is refused with LIMIT_EXCEEDED, since waiting would not help.
 */
import { GraphQLError } from "graphql";
import { LimitExceededError, RateLimitedError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import type { QuotaCounter } from "./quota-counter.js";
import type { QuotaMetrics } from "./quota-metrics.js";
import type { QuotaLimits, QuotaName, QuotaSettings } from "./quota-settings.js";

/** @default 60 // seconds */
const defaultWindowSeconds = 60;

interface ResolvedLimits {
  clientRequests: number | undefined;
  subjectRequests: number | undefined;
  clientCost: number | undefined;
  subjectCost: number | undefined;
  windowMs: number;
  /** The client as the metric names it: a configured client by its id, every other one "other". */
  label: string;
}

/** What of a quota the caller is measured by, and what it may spend. */
interface QuotaCheck {
  name: QuotaName;
  limit: number;
  key: string;
}

export class ClientQuotas {
  readonly #settings: QuotaSettings;
  readonly #counter: QuotaCounter;
  readonly #metrics: QuotaMetrics | undefined;
  readonly #limitsByClient = new Map<string, ResolvedLimits>();
  readonly #defaults: ResolvedLimits;
  /** Whether any cost quota is set, so that the lanes compute no cost for nothing. */
  readonly limitsCost: boolean;

  constructor(settings: QuotaSettings, counter: QuotaCounter, metrics?: QuotaMetrics) {
    this.#settings = settings;
    this.#counter = counter;
    this.#metrics = metrics;
    const resolve = (limits: QuotaLimits, label: string): ResolvedLimits => ({
      clientRequests: limits.clientRequests || undefined,
      subjectRequests: limits.subjectRequests || undefined,
      clientCost: limits.clientCost || undefined,
      subjectCost: limits.subjectCost || undefined,
      windowMs: (limits.windowSeconds || defaultWindowSeconds) * 1000,
      label,
    });
    this.#defaults = resolve(settings.defaults, "other");
    for (const [client, limits] of Object.entries(settings.clients)) this.#limitsByClient.set(client, resolve({ ...settings.defaults, ...limits }, client));
    const all = [this.#defaults, ...this.#limitsByClient.values()];
    this.limitsCost = all.some((limits) => limits.clientCost !== undefined || limits.subjectCost !== undefined);
  }

  /** One request of `identity`: `undefined` when admitted (and counted), else the RATE_LIMITED refusal. */
  admitRequest(identity: Identity, now = Date.now()): RateLimitedError | undefined {
    const limits = this.#limitsByClient.get(identity.client) ?? this.#defaults;
    return this.#take(identity, limits, limits.subjectRequests, limits.clientRequests, "Requests", 1, now);
  }

  /**
   * An operation of `cost` (operation-cost.ts) by `identity`: `undefined` when admitted, RATE_LIMITED
   * when this window's cost is spent, LIMIT_EXCEEDED (naming the cost and the quota) when no window
   * could ever hold it.
   */
  admitCost(identity: Identity, cost: number, now = Date.now()): GraphQLError | undefined {
    const limits = this.#limitsByClient.get(identity.client) ?? this.#defaults;
    for (const [name, limit] of [
      ["subjectCost", limits.subjectCost],
      ["clientCost", limits.clientCost],
    ] as const) {
      if (limit === undefined || cost <= limit) continue;
      this.#metrics?.refusals.inc({ quota: name, client: limits.label });
      const refused = new LimitExceededError(
        name,
        limit,
        `The operation costs ${cost} (the rows it can ask for, as GRAPHQL_MAX_COST counts them); ${this.#whose(name, identity)} may spend at most ${limit} per ${limits.windowMs / 1000} s window, so it can never run. Ask for smaller pages or fewer fields.`,
      );
      return new GraphQLError(refused.message, { originalError: refused, extensions: { ...refused.extensions, cost } });
    }
    return this.#take(identity, limits, limits.subjectCost, limits.clientCost, "Cost", cost, now);
  }

  #take(
    identity: Identity,
    limits: ResolvedLimits,
    subjectLimit: number | undefined,
    clientLimit: number | undefined,
    kind: "Requests" | "Cost",
    amount: number,
    now: number,
  ): RateLimitedError | undefined {
    if (subjectLimit === undefined && clientLimit === undefined) return undefined;
    const start = now - (now % limits.windowMs);
    const endsAt = start + limits.windowMs;
    const checks: QuotaCheck[] = [];
    // The window's start, then the client with its length (a client id cannot run into the subject), then the subject.
    const client = `${start} ${identity.client.length}:${identity.client}`;
    if (subjectLimit !== undefined) checks.push({ name: `subject${kind}`, limit: subjectLimit, key: `subject${kind} ${client} ${identity.subject}` });
    if (clientLimit !== undefined) checks.push({ name: `client${kind}`, limit: clientLimit, key: `client${kind} ${client}` });
    for (let index = 0; index < checks.length; index += 1) {
      const check = checks[index]!;
      if (this.#counter.take(check.key, endsAt, amount, check.limit)) continue;
      for (const taken of checks.slice(0, index)) this.#counter.giveBack(taken.key, amount);
      this.#metrics?.refusals.inc({ quota: check.name, client: limits.label });
      const retryAfterSeconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
      const what = kind === "Requests" ? `${check.limit} requests` : `an operation cost of ${check.limit}`;
      return new RateLimitedError(
        check.name,
        check.limit,
        retryAfterSeconds,
        `${this.#whose(check.name, identity, true)} may use ${what} per ${limits.windowMs / 1000} s window, and this window's are used. Retry after ${retryAfterSeconds} s.`,
      );
    }
    return undefined;
  }

  /** Whose quota it is, to begin a sentence with (`capital`) or within one. */
  #whose(name: QuotaName, identity: Identity, capital = false): string {
    const whose = name.startsWith("subject") ? `each subject of the client "${identity.client}"` : `the client "${identity.client}"`;
    return capital ? whose[0]!.toUpperCase() + whose.slice(1) : whose;
  }

  /** The settings the quotas were made with (for the documentation of a running gateway's choices). */
  get settings(): QuotaSettings {
    return this.#settings;
  }

  close(): Promise<void> {
    return this.#counter.close();
  }
}
