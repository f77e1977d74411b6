import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, pruneProofEvents } from "@compliance-graph/aopd/internals";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { addressWithTransfers, expectedTransfers, openProofWriter, type ProofWriter } from "./support/proof-writer.js";
import { countBeforeEndMarker } from "./support/await-end-marker.js";
import { resumingSubscriber, type ResumingSubscriber } from "./support/resuming-subscriber.js";
import { wsUrl } from "./support/subscription-clients.js";

const byCustomer = (customerId: string) => ({ is: { any: { customerId: { eq: customerId } } } });
// Spaces the writes of a steady stream; not a wait for anything.
const paceWrites = () => new Promise((resolve) => setTimeout(resolve, 10));

/**
 * Writes probe proofs for `customerId` until a subscriber sees one: from then on it is live, and
 * every later probe arrives too, in order. Waits for those and returns the probes it received
 * (those written before it subscribed are not sent).
 */
async function untilLive(writer: ProofWriter, subscriber: ResumingSubscriber, customerId: string): Promise<string[]> {
  const probes: string[] = [];
  for (let attempt = 0; attempt < 50; attempt += 1) {
    probes.push((await writer.create({ customerId, comment: "probe" })).id);
    try {
      await subscriber.until((state) => state.events.length > 0, 300);
    } catch {
      continue; // Not subscribed yet.
    }
    const received = probes.slice(probes.indexOf(subscriber.events[0]!.id));
    await subscriber.until((state) => state.events.length >= received.length);
    return received;
  }
  throw new Error("The subscription never went live.");
}

/** `countBeforeEndMarker` for a resuming subscriber: the ids of the events before the marker. */
async function idsBeforeEndMarker(writer: ProofWriter, subscriber: ResumingSubscriber, customerId: string): Promise<string[]> {
  const ids = () => subscriber.events.map((event) => event.id);
  const count = await countBeforeEndMarker(
    () => writer.create({ customerId, comment: "end marker" }),
    ids,
    (predicate) => subscriber.until(() => predicate()),
  );
  return ids().slice(0, count);
}

describe("subscriptions that resume where they stopped", () => {
  let stack: Stack;
  let writer: ProofWriter;
  let token: string;
  let databaseUrl: string;
  const subscribers: ResumingSubscriber[] = [];
  const subscribe = (filter: unknown, after: string | null = null, moreFields = "") => {
    const subscriber = resumingSubscriber(wsUrl(stack.gateway.url), token, filter, after, moreFields);
    subscribers.push(subscriber);
    return subscriber;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("resumable");
    // Few events in flight, so that replays outrun the gateway and it must pause and resume them.
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 0 }, subscriptions: { maxEventsInFlight: 4 } });
    writer = await openProofWriter(databaseUrl);
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    for (const subscriber of subscribers) await subscriber.stop();
    await writer?.close();
    await stack?.close();
  });

  it("sends a client that left and comes back with its last cursor every event it missed, once and in order, then live ones", async () => {
    const first = subscribe(byCustomer("c-away"));
    const probes = await untilLive(writer, first, "c-away");
    await first.until((state) => state.events.length === probes.length);
    await first.stop();
    const lastSeen = first.events.at(-1)!.eventCursor;

    const missed: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const row = await writer.create({ customerId: index % 2 === 0 ? "c-away" : "c-other", address: addressWithTransfers() });
      if (index % 2 === 0) missed.push(row.id);
    }
    await writer.changeStatus(missed[0]!, "VERIFIED");

    // The replayed events run the rest of the plan too: trpd's field is resolved for each.
    const back = subscribe(byCustomer("c-away"), lastSeen, "address travelRuleTransfers { counterpartyVasp direction address }");
    await back.until((state) => state.events.length === 4);
    const live = await writer.create({ customerId: "c-away", address: addressWithTransfers() });
    await back.until((state) => state.events.length === 5);
    const beforeMarker = await idsBeforeEndMarker(writer, back, "c-away");
    expect(beforeMarker).toHaveLength(5);
    expect(back.events.slice(0, 5).map((event) => `${event.id}:${event.status}`)).toEqual([
      ...missed.map((id) => `${id}:PENDING`),
      `${missed[0]}:VERIFIED`,
      `${live.id}:PENDING`,
    ]);
    for (const event of back.events.slice(0, 5)) {
      expect(event.travelRuleTransfers).toEqual(expectedTransfers(event.address as string));
    }
    expect(back.resumptions).toBe(0);
  });

  it("replays the gap to each of several clients of one identity that come back with the same cursor one after another", async () => {
    // Several tabs of one officer, cut off together, reconnect with the same last cursor a moment
    // apart: the later ones must not join the first one's subscription past its replay.
    const first = subscribe(byCustomer("c-tabs"));
    const probes = await untilLive(writer, first, "c-tabs");
    await first.until((state) => state.events.length === probes.length);
    await first.stop();
    const lastSeen = first.events.at(-1)!.eventCursor;
    const missed = [(await writer.create({ customerId: "c-tabs" })).id, (await writer.create({ customerId: "c-tabs" })).id];

    const tabOne = subscribe(byCustomer("c-tabs"), lastSeen);
    await tabOne.until((state) => state.events.length === 2);
    const tabTwo = subscribe(byCustomer("c-tabs"), lastSeen);
    await tabTwo.until((state) => state.events.length === 2);
    const live = await writer.create({ customerId: "c-tabs" });
    for (const tab of [tabOne, tabTwo]) {
      await tab.until((state) => state.events.length === 3);
      expect(tab.events.map((event) => event.id)).toEqual([...missed, live.id]);
    }
    // Both still receive the same live events afterwards, each once.
    const beforeMarker = await idsBeforeEndMarker(writer, tabTwo, "c-tabs");
    expect(beforeMarker).toEqual([...missed, live.id]);
  });

  it("loses and repeats nothing while aopd and then the gateway restart during a stream of writes", async () => {
    const subscriber = subscribe(byCustomer("c-stream"));
    const written = await untilLive(writer, subscriber, "c-stream");
    let writing = true;
    const stream = (async () => {
      while (writing) {
        written.push((await writer.create({ customerId: "c-stream" })).id);
        await paceWrites();
      }
    })();
    // Each step waits until events written after the previous one have arrived: the stream flows.
    const flowing = async () => {
      const count = written.length;
      await subscriber.until((state) => state.events.length > count);
    };
    await flowing();
    await stack.restartAopd();
    await flowing();
    const endingsAfterAopd = [...subscriber.endings];
    await stack.restartGateway();
    await flowing();
    writing = false;
    await stream;
    // The gateway continued its aopd stream by itself; only its own restart reached the client.
    expect(await idsBeforeEndMarker(writer, subscriber, "c-stream")).toEqual(written);
    expect(endingsAfterAopd).toEqual([]);
    // At least the gateway's restart; on a busy machine the first attempts to come back may also end
    // (refused while the new gateway is not listening yet), and each counts as a resumption.
    expect(subscriber.resumptions).toBeGreaterThanOrEqual(1);
  });

  it("replays a backlog (faster than the gateway may hold events) and joins the live stream without a gap or a duplicate while writes continue", async () => {
    const starter = subscribe(byCustomer("c-seam"));
    const written = await untilLive(writer, starter, "c-seam");
    await starter.until((state) => state.events.length === written.length);
    const from = starter.events.at(-1)!.eventCursor;
    await starter.stop();
    const backlog: string[] = [];
    for (let index = 0; index < 150; index += 1) backlog.push((await writer.create({ customerId: index % 3 === 0 ? "c-seam" : "c-noise" })).id);
    let writing = true;
    const during: string[] = [];
    const stream = (async () => {
      while (writing) {
        during.push((await writer.create({ customerId: "c-seam" })).id);
        await paceWrites();
      }
    })();
    const resumed = subscribe(byCustomer("c-seam"), from);
    // Past the backlog and into events written while it replayed: the seam has been crossed.
    const backlogMatches = backlog.filter((_, index) => index % 3 === 0);
    await resumed.until((state) => state.events.length > backlogMatches.length + 5);
    writing = false;
    await stream;
    expect(await idsBeforeEndMarker(writer, resumed, "c-seam")).toEqual([...backlogMatches, ...during]);
    expect(resumed.endings).toEqual([]);
  });

  it("serves the same history to pollers through /graphql, with the cursors subscriptions use", async () => {
    const subscriber = subscribe(byCustomer("c-poll"));
    const written = await untilLive(writer, subscriber, "c-poll");
    for (let index = 0; index < 4; index += 1) written.push((await writer.create({ customerId: "c-poll" })).id);
    await subscriber.until((state) => state.events.length === written.length);
    const page = `query($after: String, $filter: AopdProofFilterInput) {
      aopd { proofEvents(after: $after, limit: 2, filter: $filter) { events { cursor change proof { id eventCursor } } endCursor hasMore } }
    }`;
    const polled: { cursor: string; proof: { id: string; eventCursor: string } }[] = [];
    let after: string | null = null;
    for (let index = 0; index < 10; index += 1) {
      const { body } = await stack.query(page, token, { after, filter: byCustomer("c-poll") });
      const result = (body.data?.aopd as { proofEvents: { events: typeof polled; endCursor: string; hasMore: boolean } }).proofEvents;
      polled.push(...result.events);
      after = result.endCursor;
      if (!result.hasMore) break;
    }
    // The log also holds the probes written before the subscription was live.
    const seenBySubscriber = polled.slice(polled.length - written.length);
    expect(seenBySubscriber.map((event) => event.proof.id)).toEqual(written);
    expect(seenBySubscriber.map((event) => event.cursor)).toEqual(subscriber.events.map((event) => event.eventCursor));
    expect(polled.every((event) => event.cursor === event.proof.eventCursor)).toBe(true);

    const { body } = await stack.query('{ aopd { proofEvents(after: "nope") { hasMore } } }', token);
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }) })]);
    expect(body.errors?.[0]?.message).toMatch(/^after: is not an event cursor/);
  });

  it("refuses a subscription after a cursor that is not one, before any event, with BAD_USER_INPUT", async () => {
    const subscriber = subscribe(byCustomer("c-bad"), "bm90LWEtY3Vyc29y");
    await subscriber.until((state) => state.endings.length > 0);
    await subscriber.stop();
    expect(JSON.stringify(subscriber.endings[0])).toMatch(/BAD_USER_INPUT/);
    expect(JSON.stringify(subscriber.endings[0])).toMatch(/after: is not an event cursor/);
  });

  // Last: it prunes the whole log.
  it("refuses a cursor older than the events kept, naming the oldest cursor accepted, and serves from that one", async () => {
    const subscriber = subscribe(byCustomer("c-old"));
    const written = await untilLive(writer, subscriber, "c-old");
    written.push((await writer.create({ customerId: "c-old" })).id);
    await subscriber.until((state) => state.events.length === written.length);
    await subscriber.stop();
    // Not the last event: a cursor at the last pruned event is still good (nothing after it is gone).
    const old = subscriber.events[0]!.eventCursor;
    const database = await openDatabase({ databaseUrl, maxConnections: 1 });
    try {
      await pruneProofEvents(database.db, 0);
    } finally {
      await database.close();
    }
    const refused = subscribe(byCustomer("c-old"), old);
    await refused.until((state) => state.endings.length > 0);
    await refused.stop();
    const message = JSON.stringify(refused.endings[0]);
    expect(message).toMatch(/BAD_USER_INPUT/);
    const oldest = /the oldest cursor accepted is ([A-Za-z0-9_-]+)/.exec(message)?.[1];
    expect(oldest).toBeDefined();
    const later = await writer.create({ customerId: "c-old" });
    const resumed = subscribe(byCustomer("c-old"), oldest!);
    await resumed.until((state) => state.events.length === 1);
    expect(resumed.events.map((event) => event.id)).toEqual([later.id]);
  });
});
