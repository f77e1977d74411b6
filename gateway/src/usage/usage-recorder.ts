import type { Identity, InternalTokenMinter } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { GatewayMetrics } from "../gateway-metrics.js";

export interface UsageRecorderOptions {
  /** `<GATEWAY_REGISTRY_URL>/usage`. */
  usageUrl: string;
  /** Mints the gateway's own internal token for the registry (audience `registry`). */
  mint: InternalTokenMinter;
  /** `GATEWAY_USAGE_FLUSH_INTERVAL_MS`: how often the counts are sent. @default 10_000 // 10 seconds */
  flushIntervalMs?: number;
  /**
   * `GATEWAY_USAGE_MAX_OPERATIONS`: distinct (hour, operation, client) held until the next flush;
   * requests beyond are counted in `gateway_usage_overflow_total` only. @default 10_000
   */
  maxOperations?: number;
  /** Longest wait for the registry's answer to a flush. @default 10_000 // 10 seconds */
  requestTimeoutMs?: number;
  logger: Logger;
  metrics: GatewayMetrics;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/** Whom the gateway reports usage as (the registry accepts usage from this client only: docs/schema-registry.md). */
export const usageReporterIdentity: Readonly<Identity> = Object.freeze({ subject: "compliance-graph-gateway", client: "compliance-graph-gateway", roles: [] });

/** The registry's limits per request (docs/schema-registry.md). */
const reportsPerRequest = 1_000;
const coordinatesPerReport = 500;
const hourMs = 3_600_000;

interface Tally {
  operationHash: string;
  client: string;
  hour: number;
  count: number;
  /** The operation's own coordinates, shared by every tally of it. */
  coordinates: readonly string[];
  /** Those of values given in variables, when any. */
  given?: Set<string>;
}

export interface UsageRecorder {
  /** Counts one request; no I/O, no allocation beyond a new (hour, operation, client)'s first. */
  record(operationHash: string, client: string, coordinates: readonly string[], given: readonly string[]): void;
  /** Sends what was counted so far. */
  flush(): Promise<void>;
  /** Stops the timer and sends what is left. */
  close(): Promise<void>;
}

/**
 * Usage per operation, client and hour, counted in memory and sent to the schema registry
 * (`POST /usage`) every `flushIntervalMs`, off the path of the requests: a request costs a map
 * lookup and an increment. Memory is bounded by `maxOperations`; a flush the registry does not
 * take is kept for the next one as far as room allows, so a short outage loses no counts.
 */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { logger, metrics } = options;
  const now = options.now ?? Date.now;
  const maxOperations = options.maxOperations ?? 10_000;
  let tallies = new Map<string, Tally>();

  const add = (tally: Tally): boolean => {
    const key = `${tally.hour}\n${tally.operationHash}\n${tally.client}`;
    const existing = tallies.get(key);
    if (existing) {
      existing.count += tally.count;
      if (tally.given) for (const coordinate of tally.given) (existing.given ??= new Set()).add(coordinate);
      return true;
    }
    if (tallies.size >= maxOperations) return false;
    tallies.set(key, tally);
    return true;
  };

  const send = async (batch: Tally[]) => {
    const reports = batch.map((tally) => ({
      operationHash: tally.operationHash,
      client: tally.client,
      hour: new Date(tally.hour * hourMs).toISOString(),
      count: tally.count,
      coordinates: (tally.given ? [...new Set([...tally.coordinates, ...tally.given])] : [...tally.coordinates]).slice(0, coordinatesPerReport),
    }));
    const response = await fetch(options.usageUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await options.mint(usageReporterIdentity, "registry")}` },
      body: JSON.stringify({ reports }),
      signal: AbortSignal.timeout(options.requestTimeoutMs ?? 10_000),
    });
    await response.body?.cancel();
    if (response.status !== 202 && response.status !== 200) throw new Error(`The registry answered ${response.status} to the usage report.`);
  };

  const sendAll = async () => {
    const taken = [...tallies.values()];
    tallies = new Map();
    for (let at = 0; at < taken.length; at += reportsPerRequest) {
      try {
        await send(taken.slice(at, at + reportsPerRequest));
        metrics.usageFlushes.inc({ outcome: "ok" });
      } catch (error) {
        metrics.usageFlushes.inc({ outcome: "error" });
        logger.warn({ err: error }, "recorded usage could not be sent to the schema registry; kept for the next flush");
        for (const tally of taken.slice(at)) if (!add(tally)) metrics.usageOverflow.inc(tally.count);
        return;
      }
    }
  };
  let flushing: Promise<void> | undefined;
  // One flush at a time; `finally` runs after the assignment, even when there was nothing to send.
  const flush = () => (flushing ??= sendAll().finally(() => (flushing = undefined)));
  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 10_000);
  timer.unref();

  return {
    record(operationHash, client, coordinates, given) {
      const hour = Math.floor(now() / hourMs);
      const existing = tallies.get(`${hour}\n${operationHash}\n${client}`);
      if (existing) {
        existing.count += 1;
        for (const coordinate of given) (existing.given ??= new Set()).add(coordinate);
        return;
      }
      const tally: Tally = { operationHash, client, hour, count: 1, coordinates };
      if (given.length > 0) tally.given = new Set(given);
      if (!add(tally)) metrics.usageOverflow.inc();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
