/**
 * The gateway's WebSocket connections to subgraphs (graphql-transport-ws). Threat: the same as for
 * HTTP subgraph calls: a subgraph must never receive the caller's access token, and must be able
 * to tell who is asking. Each connection belongs to one identity and one subgraph; its
 * `connection_init` carries an internal token minted for that subgraph alone, fresh at each
 * (re)connection. Connections are shared by the subscriptions of that identity and closed when the
 * last one ends.
 */
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { identityKey, type Identity, type InternalTokenMinter } from "@compliance-graph/identity";

export interface SubgraphSocketPoolOptions {
  mint: InternalTokenMinter;
  /** Interval of pings to the subgraph, so a dead peer is noticed. @default 12_000 // 12 seconds */
  keepAliveMs?: number;
}

interface PooledClient {
  client: Client;
  users: number;
}

export class SubgraphSocketPool {
  readonly #options: SubgraphSocketPoolOptions;
  readonly #clients = new Map<string, PooledClient>();

  constructor(options: SubgraphSocketPoolOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#clients.size;
  }

  /** A client for `subgraph` at `httpUrl` on behalf of `identity`; give it back with the returned release. */
  acquire(subgraph: string, httpUrl: string, identity: Identity): { client: Client; release: () => void } {
    const key = `${httpUrl}\n${identityKey(identity)}`;
    let pooled = this.#clients.get(key);
    if (!pooled) {
      const client = createClient({
        url: httpUrl.replace(/^http/, "ws"),
        webSocketImpl: WebSocket,
        connectionParams: async () => ({ authorization: `Bearer ${await this.#options.mint(identity, subgraph)}` }),
        lazy: true,
        lazyCloseTimeout: 0,
        // A lost connection is not resumed behind the subscriber's back: events may have been
        // missed meanwhile, so the subscriptions end with an error and the client decides.
        retryAttempts: 0,
        keepAlive: this.#options.keepAliveMs ?? 12_000,
      });
      pooled = { client, users: 0 };
      this.#clients.set(key, pooled);
    }
    const entry = pooled;
    entry.users += 1;
    let released = false;
    return {
      client: entry.client,
      release: () => {
        if (released) return;
        released = true;
        entry.users -= 1;
        if (entry.users === 0 && this.#clients.get(key) === entry) {
          this.#clients.delete(key);
          void entry.client.dispose();
        }
      },
    };
  }

  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map(({ client }) => client.dispose()));
  }
}
