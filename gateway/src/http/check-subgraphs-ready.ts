import type { SubgraphEndpoint } from "../composition/supergraph-source.js";

/**
 * Readiness of the gateway: every subgraph answers its own `/health/ready` (which covers its
 * database). A gateway whose subgraphs are down should be taken out of the load balancer rather
 * than answer every query with errors. Throws naming the first subgraph that is not ready.
 */
export async function checkSubgraphsReady(subgraphs: readonly SubgraphEndpoint[], timeoutMs = 2_000): Promise<void> {
  if (subgraphs.length === 0) throw new Error("No supergraph is loaded yet.");
  await Promise.all(
    subgraphs.map(async ({ name, url }) => {
      const readyUrl = new URL("/health/ready", url);
      let status: number;
      try {
        const response = await fetch(readyUrl, { signal: AbortSignal.timeout(timeoutMs) });
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        throw new Error(`Subgraph ${name} is unreachable at ${readyUrl.href}: ${(error as Error).message}`);
      }
      if (status !== 200) throw new Error(`Subgraph ${name} is not ready (HTTP ${status}).`);
    }),
  );
}
