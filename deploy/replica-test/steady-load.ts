import { randomUUID } from "node:crypto";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { RunFigures } from "./step-figures.js";

export interface LoadOptions {
  /** The balancer's gateway frontend, `http://127.0.0.1:<port>`. */
  gateway: string;
  /** A current access token (the caller refreshes it before it expires). */
  token: () => string;
  figures: RunFigures;
  /** Concurrent readers, writers and subscribers. @default 4, 2, 3 */
  readers?: number;
  writers?: number;
  subscribers?: number;
}

/** A subscriber's view: every creation event it received, by cursor, in order. */
export interface SubscriberRecord {
  startCursor: string | null;
  received: { cursor: string; id: string }[];
}

const readQuery = "{ aopd { proofsCount } }";
const writeMutation =
  "mutation Write($input: AopdRequestAoppProofInput!, $key: String) { aopd { requestAoppProof(input: $input, idempotencyKey: $key) { proof { id } } } }";
const subscription = "subscription Proofs($after: String) { aopdProofs(after: $after) { id status eventCursor } }";

/** The code of a failed answer: the GraphQL error's, else the HTTP status. */
function failureCode(status: number, body: { errors?: { extensions?: { code?: string } }[] } | undefined): string {
  return body?.errors?.[0]?.extensions?.code ?? `http-${status}`;
}

function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return `network-${cause?.code ?? (error as Error).name}`;
}

/**
 * The replica test's steady load through the balancer: readers count proofs, writers request proofs (a write is
 * accepted when its answer carries the proof's id; a failed one is retried with the same idempotency key, as a
 * client does, so an ambiguous failure never makes a second proof), subscribers follow every proof event and resume
 * after their last `eventCursor` whenever their socket ends, as docs/subscriptions.md tells clients to.
 */
export class SteadyLoad {
  readonly accepted = new Set<string>();
  readonly subscribers: SubscriberRecord[] = [];
  private running = true;
  private following = true;
  private readonly loops: Promise<void>[] = [];
  private readonly clients: Client[] = [];

  constructor(private readonly options: LoadOptions) {}

  async post(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ status: number; body?: { data?: unknown; errors?: { extensions?: { code?: string } }[] } }> {
    const response = await fetch(`${this.options.gateway}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.options.token()}` },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  /** Starts every loop; the subscribers begin after `startCursor` (the log's end when the load starts). */
  async start(startCursor: string | null): Promise<void> {
    const { readers = 4, writers = 2, subscribers = 3 } = this.options;
    // Subscribers first, so that from the first write on every event has someone listening.
    await Promise.all(Array.from({ length: subscribers }, () => this.subscribe(startCursor)));
    for (let index = 0; index < readers; index++) this.loops.push(this.readLoop());
    for (let index = 0; index < writers; index++) this.loops.push(this.writeLoop(index));
  }

  private async readLoop(): Promise<void> {
    while (this.running) {
      try {
        const { status, body } = await this.post(readQuery);
        if (status === 200 && !body?.errors) this.options.figures.answered();
        else this.options.figures.failed(failureCode(status, body));
      } catch (error) {
        this.options.figures.failed(networkCode(error));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  private async writeLoop(writer: number): Promise<void> {
    let sequence = 0;
    while (this.running) {
      const key = randomUUID();
      const input = { customerId: `REPLICA-${writer}-${sequence++}`, asset: "DTI4H95J0R2X" };
      // The same key on every retry: at most one proof per write, however many attempts it took.
      for (let attempt = 0; attempt < 20 && this.running; attempt++) {
        try {
          const { status, body } = await this.post(writeMutation, { input, key });
          const id = (body?.data as { aopd?: { requestAoppProof?: { proof?: { id?: string } } } } | undefined)?.aopd?.requestAoppProof?.proof?.id;
          if (status === 200 && id && !body?.errors) {
            this.accepted.add(id);
            this.options.figures.answered();
            break;
          }
          this.options.figures.failed(failureCode(status, body));
        } catch (error) {
          this.options.figures.failed(networkCode(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private async subscribe(startCursor: string | null): Promise<void> {
    const record: SubscriberRecord = { startCursor, received: [] };
    this.subscribers.push(record);
    const client = createClient({
      url: `${this.options.gateway.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: () => ({ bearer_token: this.options.token() }),
      // No reconnection by the library: it would subscribe again with the first variables (the first cursor). The
      // subscription below starts again after its last cursor instead, and the client reconnects for it.
      retryAttempts: 0,
    });
    this.clients.push(client);
    let acknowledged!: () => void;
    const first = new Promise<void>((resolve) => (acknowledged = resolve));
    const follow = () => {
      if (!this.following) return;
      const after = record.received.at(-1)?.cursor ?? record.startCursor;
      client.subscribe<{ aopdProofs: { id: string; status: string; eventCursor: string } }>(
        { query: subscription, variables: { after } },
        {
          next: ({ data, errors }) => {
            if (errors) this.options.figures.failed(`subscription-${errors[0]?.extensions?.code ?? "error"}`);
            if (data) record.received.push({ cursor: data.aopdProofs.eventCursor, id: data.aopdProofs.id });
          },
          // The gateway that held the socket stopped, or the stream ended: resume after the last event received.
          error: () => setTimeout(follow, 200),
          complete: () => setTimeout(follow, 200),
        },
      );
    };
    client.on("connected", () => acknowledged());
    follow();
    await first;
  }

  /** Stops the loops (the subscribers keep listening until `close`). */
  async stopRequests(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  async close(): Promise<void> {
    this.running = false;
    this.following = false;
    await Promise.all(this.clients.map((client) => client.dispose()));
  }
}
