import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { SupergraphSdlHook } from "@apollo/gateway";
import { Supergraph } from "@apollo/federation-internals";
import type { CompactVerifyGetKey } from "jose";
import type { Logger } from "@compliance-graph/process-shell";
import type { GatewayMetrics } from "../gateway-metrics.js";
import { parseSubgraphRoutes } from "../http/read-subgraph-routes.js";
import type { SubgraphRoute } from "../http/subgraph-route.js";
import { signedSupergraphFrom, SupergraphSignatureError, verifySignedSupergraph, type SignedSupergraph } from "./signed-supergraph.js";
import type { SubgraphEndpoint, SupergraphSource } from "./supergraph-source.js";

export interface RegistrySupergraphSourceOptions {
  /** `GATEWAY_REGISTRY_URL`: the registry's internal base URL; the gateway polls `<url>/supergraph`. */
  registryUrl: string;
  /** The registry's public keys (`GATEWAY_SUPERGRAPH_KEYS`), as a key resolver. */
  keys: CompactVerifyGetKey;
  /**
   * `GATEWAY_SUPERGRAPH_CACHE_PATH`: where the last verified supergraph is kept, to start from when
   * the registry is down at start. It is verified again when read, like an answer of the registry.
   */
  cachePath: string;
  /** `GATEWAY_REGISTRY_POLL_INTERVAL_MS`: how often the registry is asked. @default 2_000 // 2 seconds */
  pollIntervalMs?: number;
  /** Longest wait for the registry's answer. @default 5_000 // 5 seconds */
  requestTimeoutMs?: number;
  logger: Logger;
  metrics: GatewayMetrics;
}

/** What the registry source adds to every supergraph source. */
export interface RegistrySupergraphSource extends SupergraphSource {
  /** The routes published with the supergraph being served. */
  routes(): SubgraphRoute[];
  /** Called with the routes of each new supergraph, after it is served. */
  onRoutes(listener: (routes: SubgraphRoute[]) => void): void;
  /**
   * Resolves when the registry serves nothing yet and there is no copy on disk: the supergraph
   * hook then waits for a first version, and the gateway serves its door meanwhile (start-gateway.ts).
   * Never resolves otherwise.
   */
  awaitingFirstVersion: Promise<void>;
  /** Ends the wait for a first version, if any: the hook then fails, as the gateway is closing. */
  close(): void;
}

/** The registry answered 404: nothing has been published to it yet. */
class NothingPublishedError extends Error {}

/** A verified answer, ready to serve. */
interface Loaded {
  signed: SignedSupergraph;
  endpoints: SubgraphEndpoint[];
  routes: SubgraphRoute[];
}

/**
 * Serves the supergraph the schema registry publishes (docs/schema-registry.md): polls
 * `GET <registry>/supergraph` with the version served as `If-None-Match`, and serves a new
 * version only once its signature and hashes verify (signed-supergraph.ts) and it builds as a
 * supergraph with valid routes; anything else is logged, counted
 * (`gateway_registry_supergraph_fetches_total`) and the current one kept. Every verified version is
 * written to `cachePath` (write, then rename: never half a file), so a gateway that starts while
 * the registry is away serves the last copy it verified; readiness says `degraded` while the
 * registry cannot be reached. Requests in flight finish on the plan they started with (Apollo
 * Server swaps its schema for the next request); subscriptions end with `SUPERGRAPH_RELOADED`.
 */
export function createRegistrySupergraphSource(options: RegistrySupergraphSourceOptions): RegistrySupergraphSource {
  const { logger, metrics } = options;
  const supergraphUrl = new URL("supergraph", options.registryUrl.endsWith("/") ? options.registryUrl : `${options.registryUrl}/`).href;
  const cachePath = resolve(options.cachePath);
  let current: Loaded | undefined;
  let reachable = false;
  const routeListeners: ((routes: SubgraphRoute[]) => void)[] = [];
  let reload: () => Promise<void> = async () => {};
  let waitingForFirstVersion = false;
  let signalAwaiting: () => void = () => {};
  const awaitingFirstVersion = new Promise<void>((resolve) => (signalAwaiting = resolve));
  const closing = new AbortController();

  /** Verifies and builds an answer; throws with the reason when it cannot be served. */
  const load = async (body: unknown): Promise<Loaded> => {
    const signed = signedSupergraphFrom(body);
    await verifySignedSupergraph(signed, options.keys);
    const endpoints = Supergraph.build(signed.supergraph)
      .subgraphsMetadata()
      .map(({ name, url }) => ({ name, url }));
    const routes = parseSubgraphRoutes({ routes: JSON.parse(signed.routes) as unknown }, `the registry's routes of version ${signed.version}`);
    return { signed, endpoints, routes };
  };

  /** The registry's newer version, or undefined when the one served is current (304). */
  const fetchNewer = async (): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(supergraphUrl, {
        headers: current ? { "if-none-match": `"${current.signed.version}"` } : {},
        signal: AbortSignal.timeout(options.requestTimeoutMs ?? 5_000),
      });
    } catch (error) {
      reachable = false;
      throw error;
    }
    reachable = response.status === 200 || response.status === 304 || response.status === 404;
    if (response.status === 304) {
      await response.body?.cancel();
      return undefined;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new NothingPublishedError(`The registry at ${supergraphUrl} serves no version yet.`);
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`The registry answered ${response.status} at ${supergraphUrl}.`);
    }
    return response.json();
  };

  const keep = async (loaded: Loaded) => {
    try {
      await mkdir(dirname(cachePath), { recursive: true });
      const partial = `${cachePath}.${process.pid}.partial`;
      await writeFile(partial, JSON.stringify(loaded.signed));
      await rename(partial, cachePath);
    } catch (error) {
      logger.warn({ err: error, cachePath }, "the verified supergraph cannot be kept on disk (GATEWAY_SUPERGRAPH_CACHE_PATH); serving it all the same");
    }
  };

  const refusal = (error: unknown): "refused" | "invalid" => (error instanceof SupergraphSignatureError ? "refused" : "invalid");

  /** The supergraph to start with: the registry's, else the copy on disk; undefined when the registry serves none yet and there is no copy. */
  const initial = async (): Promise<Loaded | undefined> => {
    let fetched: unknown;
    let nothingPublished = false;
    try {
      fetched = await fetchNewer();
    } catch (error) {
      nothingPublished = error instanceof NothingPublishedError;
      if (!nothingPublished) {
        metrics.registrySupergraphFetches.inc({ outcome: "unreachable" });
        logger.warn({ err: error, registry: supergraphUrl }, "the schema registry is unreachable at start; serving the last verified supergraph kept on disk");
      }
    }
    if (fetched !== undefined) {
      try {
        const loaded = await load(fetched);
        metrics.registrySupergraphFetches.inc({ outcome: "updated" });
        await keep(loaded);
        return loaded;
      } catch (error) {
        metrics.registrySupergraphFetches.inc({ outcome: refusal(error) });
        logger.error({ err: error }, "the registry's supergraph is refused; trying the last verified copy on disk");
      }
    }
    let copy: string;
    try {
      copy = await readFile(cachePath, "utf8");
    } catch {
      if (nothingPublished) return undefined;
      throw new Error(
        `No supergraph to serve: the schema registry at ${supergraphUrl} gave none that verifies, and there is no copy at ${cachePath} (GATEWAY_SUPERGRAPH_CACHE_PATH).`,
      );
    }
    // The copy on disk is checked like an answer: whoever can write the disk cannot choose the schema either.
    return load(JSON.parse(copy) as unknown);
  };

  /**
   * Polls until the registry serves a version that verifies. Meanwhile the gateway is up with its
   * door, so that the first subgraph is published through it like every later one.
   */
  const firstVersion = async (): Promise<Loaded> => {
    waitingForFirstVersion = true;
    signalAwaiting();
    logger.warn({ registry: supergraphUrl }, "the schema registry serves no version yet: /graphql answers SERVICE_UNAVAILABLE until a first publish");
    const pollIntervalMs = options.pollIntervalMs ?? 2_000;
    for (;;) {
      // Woken early by reload() (a test, an operator) or by closing.
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          closing.signal.removeEventListener("abort", wake);
          resolve();
        };
        const timer = setTimeout(wake, pollIntervalMs);
        reload = async () => wake();
        closing.signal.addEventListener("abort", wake);
      });
      if (closing.signal.aborted) throw new Error("The gateway closed before the schema registry served a first version.");
      let fetched: unknown;
      try {
        fetched = await fetchNewer();
      } catch (error) {
        if (!(error instanceof NothingPublishedError)) {
          metrics.registrySupergraphFetches.inc({ outcome: "unreachable" });
          logger.warn({ err: error, registry: supergraphUrl }, "the schema registry is unreachable; still waiting for its first version");
        }
        continue;
      }
      try {
        const loaded = await load(fetched);
        metrics.registrySupergraphFetches.inc({ outcome: "updated" });
        logger.info({ version: loaded.signed.version }, "the schema registry's first version is served");
        await keep(loaded);
        waitingForFirstVersion = false;
        return loaded;
      } catch (error) {
        metrics.registrySupergraphFetches.inc({ outcome: refusal(error) });
        logger.error({ err: error, registry: supergraphUrl }, "the registry's first supergraph is refused; still waiting for one that verifies");
      }
    }
  };

  const hook: SupergraphSdlHook = async ({ update }) => {
    const atStart = await initial();
    current = atStart ?? (await firstVersion());
    // A first version that came after the start: the routes served were made when there were none.
    if (!atStart) for (const listener of routeListeners) listener(current.routes);
    metrics.registrySupergraphVersion.set(current.signed.version);
    let running: Promise<void> | undefined;
    reload = () => {
      running ??= (async () => {
        try {
          const fetched = await fetchNewer();
          if (fetched === undefined) {
            metrics.registrySupergraphFetches.inc({ outcome: "unchanged" });
            return;
          }
          let next: Loaded;
          try {
            next = await load(fetched);
            if (next.signed.version === current?.signed.version && next.signed.supergraph === current.signed.supergraph) {
              metrics.registrySupergraphFetches.inc({ outcome: "unchanged" });
              return;
            }
            update(next.signed.supergraph);
          } catch (error) {
            metrics.registrySupergraphFetches.inc({ outcome: refusal(error) });
            logger.error({ err: error, registry: supergraphUrl }, "the registry's new supergraph is refused; keeping the one served");
            return;
          }
          current = next;
          metrics.registrySupergraphFetches.inc({ outcome: "updated" });
          metrics.registrySupergraphVersion.set(next.signed.version);
          logger.info({ version: next.signed.version }, "supergraph updated from the schema registry");
          for (const listener of routeListeners) listener(next.routes);
          await keep(next);
        } catch (error) {
          metrics.registrySupergraphFetches.inc({ outcome: "unreachable" });
          logger.warn({ err: error, registry: supergraphUrl }, "the schema registry is unreachable; serving the supergraph already verified");
        } finally {
          running = undefined;
        }
      })();
      return running;
    };
    const timer = setInterval(() => void reload(), options.pollIntervalMs ?? 2_000);
    timer.unref();
    return {
      supergraphSdl: current.signed.supergraph,
      cleanup: async () => {
        clearInterval(timer);
        await running;
      },
    };
  };

  return {
    hook,
    subgraphs: () => current?.endpoints ?? [],
    routes: () => current?.routes ?? [],
    onRoutes: (listener) => void routeListeners.push(listener),
    reload: () => reload(),
    degraded: () => (waitingForFirstVersion ? ["no supergraph published yet"] : reachable ? [] : ["schema registry"]),
    awaitingFirstVersion,
    close: () => closing.abort(),
  };
}
