import type { Client } from "graphql-ws";
import { conditionWaiters } from "./condition-waiters.js";
import { modernClient } from "./subscription-clients.js";

export interface ResumedEvent {
  id: string;
  status: string;
  eventCursor: string;
  [field: string]: unknown;
}

export interface ResumingSubscriber {
  events: ResumedEvent[];
  /** How many times the subscription ended and was taken up again with the last cursor. */
  resumptions: number;
  /** The errors that ended a subscription (each followed by a resumption). */
  endings: unknown[];
  until(predicate: (subscriber: ResumingSubscriber) => boolean, timeoutMs?: number): Promise<void>;
  /** The client's own disconnect: ends the subscription without resuming. */
  stop(): Promise<void>;
}

const subscription = (selection: string) => `subscription($filter: AopdProofFilterInput, $after: String) {
  aopdProofs(filter: $filter, after: $after) { id status eventCursor ${selection} }
}`;

/**
 * What an integrator writes: subscribe, remember the last event's cursor, and whenever the
 * subscription ends (the gateway restarted, the network dropped) subscribe again after it.
 */
export function resumingSubscriber(url: string, token: string, filter: unknown, after: string | null = null, moreFields = ""): ResumingSubscriber {
  const query = subscription(moreFields);
  let client: Client | undefined;
  let stopped = false;
  let cursor = after;
  const waiters = conditionWaiters(
    () => subscriber,
    () => `${subscriber.events.length} events, ${subscriber.resumptions} resumptions, first endings ${JSON.stringify(subscriber.endings.slice(0, 2))}`,
  );
  const changed = waiters.changed;
  const subscriber: ResumingSubscriber = {
    events: [],
    resumptions: 0,
    endings: [],
    until: (predicate, timeoutMs = 20_000) => waiters.until(predicate, timeoutMs),
    stop: async () => {
      stopped = true;
      await client?.dispose();
    },
  };
  const subscribe = () => {
    const current = modernClient(url, token);
    client = current;
    const ended = (reason: unknown) => {
      if (stopped) return;
      subscriber.endings.push(reason);
      subscriber.resumptions += 1;
      void current.dispose();
      setTimeout(subscribe, 200);
      changed();
    };
    current.subscribe<{ aopdProofs: ResumedEvent }>(
      { query, variables: { filter, after: cursor } },
      {
        next: (result) => {
          const event = result.data?.aopdProofs;
          if (!event) return ended(result.errors);
          subscriber.events.push(event);
          cursor = event.eventCursor;
          changed();
        },
        error: (error) => ended(error instanceof Error ? error.message : error),
        complete: () => ended("completed"),
      },
    );
  };
  subscribe();
  return subscriber;
}
