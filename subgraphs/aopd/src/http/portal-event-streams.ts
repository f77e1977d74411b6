import type { ServerResponse } from "node:http";
import type { AopdConfig } from "../aopd-config.js";
import type { ProofStatus } from "../database/database-schema.js";
import type { ProofSubscriptionHub } from "../events/proof-subscription-hub.js";
import { PublicRouteError } from "./public-route-error.js";
import { isSettled, type PublicProofSource, type PublicProofView } from "./public-proof-view.js";

/**
 * The portal's live updates: `text/event-stream` of one proof's public view. Fed by the replica's
 * proof event hub (PostgreSQL LISTEN/NOTIFY, one shared query per batch of events), never by
 * polling the database per client. Threat: open streams hold a socket and a hub subscription each,
 * so they are capped per credential (a page has one; a few allow reloads and tabs) and per
 * replica. A stream ends once the proof is settled (an officer's decision is not: it can be
 * reopened), when the hub's LISTEN connection is interrupted (the browser's EventSource reconnects
 * and re-reads), and at shutdown.
 */
export class PortalEventStreams {
  readonly #config: Pick<AopdConfig, "maxEventStreams" | "maxEventStreamsPerCredential" | "eventStreamHeartbeatSeconds">;
  readonly #hub: ProofSubscriptionHub;
  readonly #perCredential = new Map<string, number>();
  readonly #open = new Set<ServerResponse>();

  constructor(hub: ProofSubscriptionHub, config: Pick<AopdConfig, "maxEventStreams" | "maxEventStreamsPerCredential" | "eventStreamHeartbeatSeconds">) {
    this.#hub = hub;
    this.#config = config;
  }

  get openCount(): number {
    return this.#open.size;
  }

  /**
   * Serves one stream. `read` reads the proof's current public columns (called once after the
   * subscription is in place, so no change between the two is missed); `view` renders them.
   */
  async serve(
    response: ServerResponse,
    credential: string,
    proofId: string,
    read: () => Promise<PublicProofSource | undefined>,
    view: (source: PublicProofSource) => PublicProofView,
  ): Promise<void> {
    if (this.#open.size >= this.#config.maxEventStreams) {
      throw new PublicRouteError(
        "service_unavailable",
        `This server has ${this.#config.maxEventStreams} open event streams, its maximum; reload the page later.`,
      );
    }
    const held = this.#perCredential.get(credential) ?? 0;
    if (held >= this.#config.maxEventStreamsPerCredential) {
      throw new PublicRouteError("rate_limited", `This link has ${held} open event streams, the most allowed; close another page of it.`, undefined, 30);
    }
    let events: AsyncIterableIterator<{
      aopdProofs: { status: ProofStatus; updatedAt: Date; dueAt: Date | null; address: string | null; txId?: string | null };
    }>;
    try {
      events = await this.#hub.subscribe({ is: { any: { id: { eq: proofId } } } });
    } catch {
      throw new PublicRouteError("service_unavailable", "Live updates are not available right now; reload the page shortly.");
    }
    this.#perCredential.set(credential, held + 1);
    this.#open.add(response);
    const heartbeat = setInterval(() => response.write(": keep-alive\n\n"), this.#config.eventStreamHeartbeatSeconds * 1_000);
    heartbeat.unref();
    const stop = () => void events.return?.();
    response.on("close", stop);
    try {
      let source = await read();
      if (!source) throw new PublicRouteError("unknown_proof", "This link does not belong to a proof.");
      response.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        connection: "keep-alive",
      });
      const send = (current: PublicProofSource) => response.write(`event: proof\ndata: ${JSON.stringify(view(current))}\n\n`);
      send(source);
      if (!isSettled(source)) {
        for await (const { aopdProofs: proof } of events) {
          // A change committed before the first read can still be numbered after the subscription
          // began; the page has already shown it.
          if (proof.updatedAt.getTime() <= source.updated_at.getTime()) continue;
          source = {
            ...source,
            status: proof.status,
            updated_at: proof.updatedAt,
            due_at: proof.dueAt,
            address: proof.address,
            ...(proof.txId !== undefined ? { tx_id: proof.txId } : {}),
          };
          // No event carries `left_for_review` (set as the proof leaves PENDING), on which it depends
          // whether a decision is the end (an officer's can be reopened): so the row is read once more
          // before the stream ends on it.
          if (isSettled(source)) source = (await read()) ?? source;
          send(source);
          if (isSettled(source)) break;
        }
      }
    } catch (error) {
      // Headers not yet sent: the caller answers the error. Otherwise the stream just ends (an
      // interrupted hub, a closed socket) and the browser reconnects.
      if (!response.headersSent) throw error;
    } finally {
      clearInterval(heartbeat);
      response.off("close", stop);
      stop();
      this.#open.delete(response);
      const left = (this.#perCredential.get(credential) ?? 1) - 1;
      if (left > 0) this.#perCredential.set(credential, left);
      else this.#perCredential.delete(credential);
      if (response.headersSent) response.end();
    }
  }

  /** Ends every open stream (shutdown). */
  endAll(): void {
    for (const response of this.#open) response.end();
  }
}
