import { randomUUID } from "node:crypto";
import type { ServiceMap } from "@apollo/gateway";
import { context } from "@opentelemetry/api";
import type { FormattedExecutionResult, GraphQLFormattedError } from "graphql";
import { LimitExceededError, maskError, ServiceUnavailableError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import { inSpanContext, isTracingEnabled, projectTracer, type Logger } from "@compliance-graph/process-shell";
import type { GatewayMetrics } from "../gateway-metrics.js";
import type { Client } from "graphql-ws";
import { executeSubscriptionEvent, type UpstreamEvent } from "./execute-subscription-event.js";
import type { SubgraphSocketPool } from "./subgraph-socket-pool.js";
import { SubscriptionEndedError, type SubscriptionMember } from "./subscription-member.js";
import type { PlannedSubscription } from "./subscription-planner.js";

export interface SharedSubscriptionOptions {
  planned: PlannedSubscription;
  identity: Identity;
  pool: SubgraphSocketPool;
  dataSources: ServiceMap;
  maxEventsInFlight: number;
  /** How long to keep trying to continue a resumable subscription after its connection dropped. */
  resumeWindowMs: number;
  logger: Logger;
  metrics?: GatewayMetrics | undefined;
  /** Called once, when the last member left or the subscription ended. */
  onClosed: () => void;
}

const onlyUnavailable = (errors: readonly GraphQLFormattedError[]) =>
  errors.length > 0 && errors.every((error) => error.extensions?.code === "SERVICE_UNAVAILABLE");

const unavailable = (part: string, message: string): GraphQLFormattedError => {
  const error = new ServiceUnavailableError(part, message);
  return { message: error.message, extensions: error.extensions };
};

/**
 * One subscription at the owning subgraph, shared by every client subscription of the same identity
 * with the same operation and variables (the owning subgraph does the work once, and the rest of the
 * plan runs once per event, however many sockets receive it). Events are executed as they arrive,
 * concurrently, and delivered in arrival order.
 *
 * A resumable one (see `resumableOperation`) outlives the subgraph's connection: when it drops or
 * the subgraph ends the stream (a restart, a deploy), the gateway subscribes again after the last
 * event it received, with backoff, for up to `resumeWindowMs`; the members see a pause, not an end,
 * and neither a gap nor a duplicate.
 */
export class SharedSubscription {
  readonly #options: SharedSubscriptionOptions;
  readonly #members = new Set<SubscriptionMember>();
  readonly #context;
  #unsubscribe: (() => void) | undefined;
  #release: (() => void) | undefined;
  #delivered: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #closed = false;
  /** The cursor of the last event received, for a resumable subscription. */
  #cursor: string | null = null;
  #lostAt: number | undefined;
  #retryDelayMs = 250;
  #retryTimer: NodeJS.Timeout | undefined;
  #client: Client | undefined;
  #generation = 0;
  #paused = false;

  constructor(options: SharedSubscriptionOptions) {
    this.#options = options;
    const requestId = randomUUID();
    const logger = options.logger.child({ requestId, subject: options.identity.subject, client: options.identity.client });
    this.#context = { identity: options.identity, requestId, logger };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Whether a client subscription with the same operation and variables may join this one now and
   * receive exactly what it asked for. Threat: a missed event. A resumable subscription asked for
   * the events after a cursor; once this one has received events past that cursor (its replay
   * delivered to the members before), a newcomer would join mid-stream and never see them. That
   * is what happened when several tabs of one officer reconnected together after a cut with the
   * same last cursor: the first replayed the gap, the later ones joined it and missed the gap. A
   * newcomer joins only while this one stands exactly at its cursor (nothing received since, nothing
   * received still undelivered); otherwise it gets an upstream subscription of its own. Without a
   * cursor (`after` null: live from now) any moment is a right one to join.
   */
  get joinable(): boolean {
    if (this.#closed) return false;
    const requested = this.#requestedAfter();
    return requested === null || (this.#cursor === requested && this.#inFlight === 0);
  }

  /** The cursor the members asked to start after (the same for all: it is part of the sharing key), or null. */
  #requestedAfter(): string | null {
    const resumable = this.#options.planned.resumable;
    if (!resumable) return null;
    const after = resumable.clientAfter;
    return "variable" in after ? ((this.#options.planned.variables[after.variable] as string | null | undefined) ?? null) : after.value;
  }

  add(member: SubscriptionMember): void {
    this.#members.add(member);
    if (!this.#release) this.#start();
  }

  remove(member: SubscriptionMember): void {
    this.#members.delete(member);
    if (this.#members.size === 0) this.#close();
  }

  /** Ends every member with these errors (or as completed) and the upstream subscription. */
  end(errors?: GraphQLFormattedError[]): void {
    const members = [...this.#members];
    this.#members.clear();
    this.#close();
    for (const member of members) member.end(errors ? new SubscriptionEndedError(errors) : undefined);
  }

  #start(): void {
    const { planned, pool, identity } = this.#options;
    const { primary } = planned.plan;
    const url = planned.planner.subgraphUrl(primary.serviceName);
    if (!url) return this.end([unavailable(`${primary.serviceName} service`, `The subgraph ${primary.serviceName} has no routing URL.`)]);
    const { client, release } = pool.acquire(primary.serviceName, url, identity);
    this.#release = release;
    if (planned.resumable) this.#cursor = this.#requestedAfter();
    this.#client = client;
    this.#subscribeUpstream();
  }

  #subscribeUpstream(): void {
    const client = this.#client;
    if (!client || this.#closed) return;
    // Callbacks of an earlier upstream subscription (paused, or replaced after a loss) are stale.
    const generation = ++this.#generation;
    const current = () => generation === this.#generation && !this.#closed;
    const { planned } = this.#options;
    const { primary } = planned.plan;
    const resumable = planned.resumable;
    const variables: Record<string, unknown> = {};
    for (const name of primary.variableUsages ?? []) if (name in planned.variables) variables[name] = planned.variables[name];
    if (resumable) variables[resumable.afterVariable] = this.#cursor;
    const stopWatching = resumable ? client.on("connected", () => this.#resumed()) : undefined;
    const unsubscribe = client.subscribe<Record<string, unknown>>(
      { query: resumable?.operation ?? primary.operation, variables, ...(primary.operationName ? { operationName: primary.operationName } : {}) },
      {
        next: (event) => {
          if (current()) this.#onEvent(event as UpstreamEvent);
        },
        error: (error) => {
          stopWatching?.();
          if (!current()) return;
          if (resumable && (!Array.isArray(error) || onlyUnavailable(error))) return this.#afterDeliveries(() => this.#resume(error));
          this.#afterDeliveries(() => this.end(this.#upstreamErrors(error)));
        },
        complete: () => {
          stopWatching?.();
          if (!current()) return;
          // The subgraph ended the stream (it is shutting down): a resumable one continues elsewhere.
          this.#afterDeliveries(() => (resumable ? this.#resume(undefined) : this.end()));
        },
      },
    );
    this.#unsubscribe = () => {
      stopWatching?.();
      unsubscribe();
    };
  }

  #resumed(): void {
    this.#lostAt = undefined;
    this.#retryDelayMs = 250;
  }

  #resume(error: unknown): void {
    if (this.#closed) return;
    const service = this.#options.planned.plan.primary.serviceName;
    const now = performance.now();
    this.#lostAt ??= now;
    if (now - this.#lostAt > this.#options.resumeWindowMs) {
      const resume = this.#cursor === null ? "subscribe again" : `subscribe again with after: "${this.#cursor}"`;
      return this.end([
        unavailable(
          `${service} service`,
          `The ${service} subgraph could not be reached for ${Math.round(this.#options.resumeWindowMs / 1000)} s; ${resume} to continue without missing events.`,
        ),
      ]);
    }
    this.#context.logger.warn({ err: error, retryInMs: this.#retryDelayMs }, "subgraph subscription interrupted; resuming after the last event received");
    this.#retryTimer = setTimeout(() => this.#subscribeUpstream(), this.#retryDelayMs);
    this.#retryDelayMs = Math.min(this.#retryDelayMs * 2, 5_000);
  }

  /**
   * A resumable stream that outruns the rest of the plan (a replay of a backlog arrives as fast as
   * aopd reads it) is paused rather than ended: the gateway stops the upstream subscription and,
   * once the events it holds are delivered, subscribes again after the last one. The events sent
   * meanwhile are dropped here and sent again then; memory stays bounded by `maxEventsInFlight`.
   */
  #pause(): void {
    this.#generation += 1;
    this.#paused = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #onEvent(event: UpstreamEvent): void {
    const resumable = this.#options.planned.resumable;
    if (event.data == null && event.errors?.length) {
      // graphql-js reports a refused subscription (its `subscribe` threw) as one result without
      // data followed by completion: it ends the subscription, it is not an event. A subgraph
      // that is starting or stopping refuses with SERVICE_UNAVAILABLE: a resumable one tries again.
      const refusal = event.errors;
      if (resumable && onlyUnavailable(refusal)) return this.#afterDeliveries(() => this.#resume(refusal));
      const errors = refusal.map((formatted) => maskError(formatted, undefined, { trustCodes: true }));
      return this.#afterDeliveries(() => this.end(errors));
    }
    if (this.#inFlight >= this.#options.maxEventsInFlight) {
      if (resumable) return this.#pause();
      const limit = this.#options.maxEventsInFlight;
      this.end([new LimitExceededError("maxEventsInFlight", limit, `More than ${limit} events waited for the other subgraphs; subscribe again.`).toJSON()]);
      return;
    }
    const root = resumable ? event.data?.[resumable.responseKey] : undefined;
    if (resumable && root && typeof root === "object") {
      // The cursor was asked for by the gateway, not by the client: read it, then drop it.
      const { [resumable.cursorAlias]: cursor, ...rest } = root as Record<string, unknown>;
      if (typeof cursor === "string") this.#cursor = cursor;
      event = { ...event, data: { ...event.data, [resumable.responseKey]: rest } };
    }
    this.#inFlight += 1;
    const { planned, dataSources } = this.#options;
    const upstream = event;
    const run = () => executeSubscriptionEvent(planned, upstream, dataSources, this.#context, this.#context.logger);
    // Each event's execution is a trace of its own (its fetches to other subgraphs are the children).
    const span = isTracingEnabled()
      ? projectTracer().startSpan("subscription.event", { attributes: { "graphql.subgraph": planned.plan.primary.serviceName } })
      : undefined;
    const traced = span ? inSpanContext(span, context.active(), run).finally(() => span.end()) : run();
    const execution = traced.catch((error: unknown) => {
      this.#context.logger.error({ err: error }, "subscription event execution failed");
      return { errors: [maskError({ message: String(error) }, error)] } satisfies FormattedExecutionResult;
    });
    this.#delivered = this.#delivered.then(async () => {
      const result = await execution;
      this.#inFlight -= 1;
      if (this.#closed) return;
      const bytes = JSON.stringify(result).length;
      for (const member of this.#members) member.push(result, bytes);
      this.#options.metrics?.subscriptionEventsDelivered.inc(this.#members.size);
      if (this.#paused && this.#inFlight === 0) {
        this.#paused = false;
        this.#subscribeUpstream();
      }
    });
  }

  /** Ends only after the events already received are delivered, so none is lost to the race. */
  #afterDeliveries(action: () => void): void {
    this.#delivered = this.#delivered.then(action);
  }

  #upstreamErrors(error: unknown): GraphQLFormattedError[] {
    if (Array.isArray(error)) {
      // The subgraph masked its errors; the public codes it sent are kept, as on the HTTP path.
      return (error as GraphQLFormattedError[]).map((formatted) => maskError(formatted, undefined, { trustCodes: true }));
    }
    this.#context.logger.warn({ err: error }, "subgraph subscription connection lost");
    return [
      unavailable(
        `${this.#options.planned.plan.primary.serviceName} service`,
        `The connection to the ${this.#options.planned.plan.primary.serviceName} subgraph was lost and events may have been missed; subscribe again.`,
      ),
    ];
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#unsubscribe?.();
    this.#release?.();
    this.#options.onClosed();
  }
}
