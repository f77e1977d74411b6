import { createClient, type Client } from "graphql-ws";
import { documentText, graphql, type ResultOf, type SchemaChecked, type VariablesOf } from "./graphql/graphql.js";
import { proofFields, type Proof } from "./proof-fields.js";
import type { OfficerSession } from "./officer-session.js";

/** Every proof event, after the cursor where one is given (resuming after a lost connection). */
const proofEvents = graphql(
  `
    subscription LiveProofs($after: String) {
      aopdProofs(after: $after) {
        ...ProofFields
      }
    }
  `,
  [proofFields],
);

// The subscription is sent by graphql-ws, not `gatewayApi`: the same check that its selection is the schema's.
const _proofEventsChecked: SchemaChecked<ResultOf<typeof proofEvents>, VariablesOf<typeof proofEvents>> = {};

/** Longest wait between two reconnection attempts. @default 15_000 // 15 seconds */
const maxBackoffMs = 15_000;

/**
 * Holds one `aopdProofs` subscription for the whole console and tells every listener about each
 * proof event. The bearer token goes in `connection_init` (`{ bearer_token }`), fresh at each
 * connection. After a lost connection it subscribes again with `after` set to the last
 * `eventCursor` it saw, so the gateway replays what happened meanwhile and nothing is missed.
 */
export function liveProofs(session: OfficerSession, onStateChange: (connected: boolean) => void) {
  const listeners = new Set<(proof: Proof) => void>();
  let lastCursor: string | undefined;
  let client: Client | undefined;
  let attempt = 0;
  let stopped = false;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  // Set when the gateway refused the token (4401): the next connection asks for a new one first,
  // rather than offering the refused one again and again.
  let renewFirst = false;

  const connect = () => {
    if (stopped) return;
    // One client per connection: its own end (error or complete, whichever comes first, once)
    // schedules the next, so two endings never start two competing connections.
    const current = createClient({
      url,
      retryAttempts: 0,
      lazy: false,
      connectionParams: async () => ({ bearer_token: renewFirst ? await session.renew() : await session.accessToken() }),
    });
    client = current;
    let ended = false;
    current.on("connected", () => {
      attempt = 0;
      renewFirst = false;
      onStateChange(true);
    });
    const retry = () => {
      if (ended) return;
      ended = true;
      onStateChange(false);
      void current.dispose();
      if (stopped) return;
      attempt += 1;
      setTimeout(connect, Math.min(maxBackoffMs, 500 * 2 ** attempt));
    };
    current.subscribe<ResultOf<typeof proofEvents>>(
      { query: documentText(proofEvents), variables: { after: lastCursor ?? null } satisfies VariablesOf<typeof proofEvents> },
      {
        next: ({ data }) => {
          if (!data) return;
          if (data.aopdProofs.eventCursor) lastCursor = data.aopdProofs.eventCursor;
          for (const listener of listeners) listener(data.aopdProofs);
        },
        error: (error: unknown) => {
          // A refusal of the subscription itself (GraphQL errors, not a lost socket): after a restart
          // the cursor may name an event this service no longer has. Asking again with it would be
          // refused forever, so the next connection starts from now.
          if (Array.isArray(error)) lastCursor = undefined;
          if ((error as { code?: number } | undefined)?.code === 4401) renewFirst = true;
          retry();
        },
        complete: retry,
      },
    );
  };
  connect();
  return {
    /** Calls `listener` with each proof event until the returned function is called. */
    listen(listener: (proof: Proof) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      void client?.dispose();
    },
  };
}

export type LiveProofs = ReturnType<typeof liveProofs>;
