import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { startSubgraphServer, type RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createIdentityDoor, type InternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";

/** The held domain's schema before (`heldAnswer`) and after (`nextAnswer`) a change. */
export const heldSchemaFiles = {
  v1: fileURLToPath(new URL("held-v1.graphql", import.meta.url)),
  v2: fileURLToPath(new URL("held-v2.graphql", import.meta.url)),
};

export interface RunningHeldSubgraph extends RunningSubgraphServer {
  /** Resolves when a `heldAnswer` request has reached the resolver (the gateway planned and sent it). */
  entered(): Promise<void>;
  /** Lets every held `heldAnswer` answer. */
  release(): void;
}

/**
 * A subgraph that serves both versions' fields (a deployment runs ahead of its published schema)
 * and holds every `heldAnswer` until the test releases it, so a request is in flight at the
 * gateway, on a known plan, while the gateway switches to another supergraph.
 */
export async function startHeldSubgraph(verifier: InternalTokenVerifier): Promise<RunningHeldSubgraph> {
  const logger = createLogger("held", "silent");
  let released = false;
  const waiting: (() => void)[] = [];
  let announce: () => void = () => {};
  let entering = new Promise<void>((resolve) => (announce = resolve));
  const served = `${readFileSync(heldSchemaFiles.v1, "utf8")}\nextend type Query {\n  nextAnswer: String\n}\n`;
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(served),
      resolvers: {
        Query: {
          heldAnswer: async () => {
            announce();
            if (!released) await new Promise<void>((resolve) => waiting.push(resolve));
            return "held, then answered";
          },
          nextAnswer: () => "answered at once",
        },
      },
    },
  ]);
  const server = await startSubgraphServer({
    name: "held",
    schema,
    port: 0,
    production: false,
    identity: createIdentityDoor({ subgraph: "held", verifier, production: false, logger }),
    createContext: ({ identity }) => ({ identity }),
    checkReady: async () => {},
    logger,
  });
  return Object.assign(server, {
    entered: () => entering,
    release: () => {
      released = true;
      for (const wake of waiting.splice(0)) wake();
      entering = Promise.resolve();
    },
  });
}
