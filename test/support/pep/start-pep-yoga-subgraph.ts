import { fileURLToPath } from "node:url";
import { freePort, startProcess, type BenchProcess } from "@compliance-graph/test-kit";

/** The PEP domain's schema as first published, and its next version with one field added. */
export const pepSchemaFiles = {
  v1: fileURLToPath(new URL("pep-v1.graphql", import.meta.url)),
  v2: fileURLToPath(new URL("pep-v2.graphql", import.meta.url)),
};

export interface RunningPepSubgraph {
  /** Its GraphQL endpoint, as published to the registry. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the GraphQL Yoga PEP subgraph (pep-yoga-subgraph.ts) in a process of its own, serving
 * its newest schema (v2), verifying internal tokens against the gateway's JWKS at `jwksUrl`.
 */
export async function startPepYogaSubgraph(jwksUrl: string): Promise<RunningPepSubgraph> {
  const port = await freePort();
  const entry = fileURLToPath(new URL("pep-yoga-subgraph.ts", import.meta.url));
  const running: BenchProcess = await startProcess(
    entry,
    { PORT: String(port), INTERNAL_JWKS_URL: jwksUrl, PEP_SCHEMA_FILE: pepSchemaFiles.v2 },
    `http://127.0.0.1:${port}/health/ready`,
  );
  return { url: `http://127.0.0.1:${port}/graphql`, stop: () => running.stop() };
}
