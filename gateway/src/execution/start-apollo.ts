import type { ApolloServer } from "@apollo/server";
import type { Logger } from "@compliance-graph/process-shell";
import type { GatewayContext } from "../gateway-context.js";

export interface StartedApollo {
  /** Whether Apollo serves a supergraph yet. */
  serving(): boolean;
  /** Stops Apollo, or ends its wait for a first supergraph. */
  stop(): Promise<void>;
}

export interface FirstSupergraphWait {
  /** Resolves when the source waits for a first supergraph (an empty schema registry). */
  awaitingFirstVersion: Promise<void>;
  /** Ends that wait: Apollo's start then fails, as the gateway is closing. */
  close(): void;
}

/**
 * Starts Apollo Server on the source's first supergraph. It resolves once Apollo serves, or as soon
 * as the source waits for a first version (a schema registry nobody has published to yet): the
 * gateway then listens meanwhile, so that first version is published through its door like every
 * later one, and Apollo starts when it arrives. A start that fails before that rejects, as before.
 */
export async function startApollo(apollo: ApolloServer<GatewayContext>, wait: FirstSupergraphWait | undefined, logger: Logger): Promise<StartedApollo> {
  let serving = false;
  let stopping = false;
  const starting = apollo.start().then(() => {
    serving = true;
  });
  await (wait ? Promise.race([starting, wait.awaitingFirstVersion]) : starting);
  starting.catch((error: unknown) => {
    if (!stopping) logger.error({ err: error }, "Apollo Server did not start on the schema registry's first version; /graphql stays unavailable");
  });
  return {
    serving: () => serving,
    stop: async () => {
      stopping = true;
      if (serving) return apollo.stop();
      wait?.close();
      await starting.catch(() => undefined);
      // A first version may have arrived while the wait was ending.
      if (serving) await apollo.stop();
    },
  };
}
