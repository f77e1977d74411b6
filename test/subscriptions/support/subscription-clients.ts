import { createClient, type Client, type ClientOptions } from "graphql-ws";
import { SubscriptionClient } from "subscriptions-transport-ws";
import WebSocket from "ws";
import { conditionWaiters } from "./condition-waiters.js";

export interface Received {
  results: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] }[];
  error: unknown;
  completed: boolean;
  /** Resolves when `predicate` holds for what was received, or rejects after `timeoutMs`. */
  until(predicate: (received: Received) => boolean, timeoutMs?: number): Promise<void>;
}

function collector(): Received & { changed(): void } {
  const waiters = conditionWaiters(
    () => received,
    () => `received ${JSON.stringify({ results: received.results, error: received.error, completed: received.completed })}`,
  );
  const received: Received & { changed(): void } = {
    results: [],
    error: undefined,
    completed: false,
    changed: waiters.changed,
    until: (predicate, timeoutMs = 10_000) => waiters.until(predicate, timeoutMs),
  };
  return received;
}

/** A graphql-ws client (graphql-transport-ws) on the gateway, with the token in `connection_init`. */
export function modernClient(url: string, token: string | undefined | (() => string), options: Partial<ClientOptions> = {}): Client {
  return createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: () => (token === undefined ? {} : { bearer_token: typeof token === "function" ? token() : token }),
    retryAttempts: 0,
    ...options,
  });
}

/** Subscribes and collects what arrives. */
export function subscribeModern(client: Client, query: string, variables?: Record<string, unknown>): Received & { stop(): void } {
  const received = collector();
  const stop = client.subscribe(
    { query, ...(variables ? { variables } : {}) },
    {
      next: (value) => {
        received.results.push(value as Received["results"][number]);
        received.changed();
      },
      error: (error) => {
        received.error = error;
        received.changed();
      },
      complete: () => {
        received.completed = true;
        received.changed();
      },
    },
  );
  return Object.assign(received, { stop });
}

/** A subscriptions-transport-ws client (legacy `graphql-ws` subprotocol). */
export function legacyClient(url: string, token: string | undefined): SubscriptionClient {
  return new SubscriptionClient(url, { reconnect: false, lazy: false, connectionParams: token === undefined ? {} : { bearer_token: token } }, WebSocket);
}

export function subscribeLegacy(client: SubscriptionClient, query: string, variables?: Record<string, unknown>): Received & { stop(): void } {
  const received = collector();
  const subscription = client.request({ query, ...(variables ? { variables } : {}) }).subscribe({
    next: (value) => {
      received.results.push(value as Received["results"][number]);
      received.changed();
    },
    error: (error: unknown) => {
      received.error = error;
      received.changed();
    },
    complete: () => {
      received.completed = true;
      received.changed();
    },
  });
  return Object.assign(received, { stop: () => subscription.unsubscribe() });
}

/** The close event of a raw socket, for the tests of handshakes and limits. */
export function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once("close", (code, reason) => resolve({ code, reason: String(reason) })));
}

export const wsUrl = (httpUrl: string, path = "/graphql") => httpUrl.replace(/^http/, "ws").replace(/\/graphql$/, path);
