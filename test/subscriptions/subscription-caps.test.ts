import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { openProofWriter, type ProofWriter } from "./support/proof-writer.js";
import { closeOf, wsUrl } from "./support/subscription-clients.js";

const byCustomer = (customerId: string) => `subscription { aopdProofs(filter: { is: { any: { customerId: { eq: "${customerId}" } } } }) { id } }`;

interface Opened {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
  /** Messages received, parsed. */
  messages: { type: string; id?: string; payload?: unknown }[];
  /** Resolves with the first message that satisfies `predicate`, or with the close if the socket closes first. */
  next(
    predicate: (message: { type: string; id?: string; payload?: unknown }) => boolean,
  ): Promise<{ type: string; id?: string; payload?: unknown } | { code: number; reason: string }>;
}

/**
 * The audit's attack, scaled down: one reader's token (and one address) opening sockets and
 * subscriptions until the gateway held 200 sockets x 50 `aopdProofs`. Each cap is reached and
 * passed here, on a gateway of the test's own with small caps; what is refused changes nothing for
 * what runs.
 */
describe("subscription caps per subject, per address and per replica", () => {
  let stack: Stack;
  let writer: ProofWriter;
  let token: string;
  let readerToken: string;
  let auditorToken: string;
  const opened: WebSocket[] = [];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("subscription-caps");
    stack = await startStack({
      realAopd: { databaseUrl, seedDemoProofs: 0 },
      extraClients: [
        { clientId: "reader", clientSecret: "reader-secret", roles: ["proofs:read"] },
        { clientId: "auditor", clientSecret: "auditor-secret", roles: ["proofs:read"] },
      ],
      // One proxy in front: its x-forwarded-for names the client; without the header, the socket's address does.
      trustedProxyHops: 1,
      subscriptions: {
        maxConnections: 10,
        maxSubscriptions: 10,
        maxConnectionsPerSubject: 3,
        maxSubscriptionsPerSubject: 5,
        maxConnectionsPerAddress: 4,
        maxSubscriptionsPerAddress: 7,
      },
    });
    writer = await openProofWriter(databaseUrl);
    token = await stack.fetchToken();
    readerToken = await stack.fetchToken("reader", "reader-secret");
    auditorToken = await stack.fetchToken("auditor", "auditor-secret");
  });
  afterEach(async () => {
    const closing = opened.splice(0).map((socket) => {
      const closed = closeOf(socket);
      socket.close();
      return socket.readyState === WebSocket.CLOSED ? Promise.resolve() : closed;
    });
    await Promise.all(closing);
    // Every place given back, by the gateway's own count, before the next case.
    await expect.poll(() => total(stack.gateway.metrics.countSockets()), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => total(stack.gateway.metrics.countSubscriptions()), { timeout: 15_000 }).toBe(0);
  });
  afterAll(async () => {
    await writer?.close();
    await stack?.close();
  });

  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, count) => sum + count, 0);

  async function open(localAddress: string, protocol = "graphql-transport-ws", forwardedFor?: string): Promise<Opened> {
    const socket = new WebSocket(wsUrl(stack.gateway.url), protocol, {
      localAddress,
      ...(forwardedFor ? { headers: { "x-forwarded-for": forwardedFor } } : {}),
    });
    opened.push(socket);
    const closed = closeOf(socket);
    const messages: Opened["messages"] = [];
    const waiters: (() => void)[] = [];
    socket.on("message", (data) => {
      messages.push(JSON.parse(String(data)) as Opened["messages"][number]);
      for (const waiter of waiters.splice(0)) waiter();
    });
    const next: Opened["next"] = (predicate) =>
      new Promise((resolve) => {
        const check = () => {
          const found = messages.find(predicate);
          if (found) return resolve(found);
          waiters.push(check);
        };
        check();
        void closed.then(resolve);
      });
    await Promise.race([new Promise((resolve) => socket.once("open", resolve)), closed]);
    return { socket, closed, messages, next };
  }

  /** Opens a socket and sends `connection_init`; resolves with the acknowledgement or the close. */
  async function connect(bearer: string, localAddress: string, protocol = "graphql-transport-ws") {
    const connection = await open(localAddress, protocol);
    connection.socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: bearer } }));
    const first = await connection.next((message) => message.type === "connection_ack" || message.type === "connection_error");
    return { ...connection, first };
  }

  function subscribe(connection: Opened, id: string, customerId = `cap-${id}`) {
    connection.socket.send(JSON.stringify({ type: "subscribe", id, payload: { query: byCustomer(customerId) } }));
  }

  const running = () => total(stack.gateway.metrics.countSubscriptions());

  /**
   * Writes proofs of subscription `id`'s customer until one reaches the socket: no message says when
   * aopd has registered a subscription, so probes are written until one arrives.
   */
  async function receives(connection: Opened, id: string): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      await writer.create({ customerId: `cap-${id}` });
      const arrived = await Promise.race([
        connection.next((message) => message.type === "next" && message.id === id),
        new Promise((resolve) => setTimeout(() => resolve(undefined), 300)),
      ]);
      if (arrived && "type" in (arrived as object)) return;
      if (arrived) throw new Error(`The socket closed: ${JSON.stringify(arrived)}`);
    }
    throw new Error(`Subscription ${id} never received an event.`);
  }

  it("closes a subject's socket past its cap with 4420 once connection_init is verified (legacy: connection_error first); others are served", async () => {
    for (let i = 0; i < 3; i += 1) expect((await connect(token, "127.0.0.2")).first).toMatchObject({ type: "connection_ack" });
    const fourth = await connect(token, "127.0.0.3");
    expect(fourth.first).toEqual({ code: 4420, reason: "Too many connections" });
    const legacy = await connect(token, "127.0.0.3", "graphql-ws");
    expect(legacy.first).toEqual({
      type: "connection_error",
      payload: { message: "At most 3 subscription sockets may be open for one subject; close one first.", extensions: { code: "LIMIT_EXCEEDED" } },
    });
    expect(await legacy.closed).toEqual({ code: 4420, reason: "Too many connections" });
    // Another subject from the same address is served.
    expect((await connect(readerToken, "127.0.0.3")).first).toMatchObject({ type: "connection_ack" });
    // A socket of the subject closes: its place is free again.
    const [firstOfSubject] = opened;
    const closed = closeOf(firstOfSubject!);
    firstOfSubject!.close();
    await closed;
    await expect.poll(async () => ((await connect(token, "127.0.0.4")).first as { type?: string }).type, { timeout: 15_000 }).toBe("connection_ack");
  });

  it("refuses a subject's subscription past its cap over all its sockets with LIMIT_EXCEEDED, keeps the running ones live, and frees the place when one completes", async () => {
    const sockets = [await connect(token, "127.0.0.2"), await connect(token, "127.0.0.3"), await connect(token, "127.0.0.4")];
    for (let i = 0; i < 5; i += 1) subscribe(sockets[i % 3]!, `s${i}`);
    await expect.poll(running, { timeout: 15_000 }).toBe(5);
    subscribe(sockets[2]!, "s5");
    expect(await sockets[2]!.next((message) => message.id === "s5")).toEqual({
      type: "error",
      id: "s5",
      payload: [
        {
          message: "One subject may run at most 5 subscriptions; complete one first.",
          extensions: { code: "LIMIT_EXCEEDED", limit: "maxSubscriptionsPerSubject", allowed: 5 },
        },
      ],
    });
    expect(running()).toBe(5);
    // The sockets stay open and the running subscriptions live; completing one frees its place.
    await receives(sockets[1]!, "s1");
    sockets[0]!.socket.send(JSON.stringify({ type: "complete", id: "s0" }));
    await expect.poll(running, { timeout: 15_000 }).toBe(4);
    subscribe(sockets[0]!, "s6");
    await expect.poll(running, { timeout: 15_000 }).toBe(5);
    await receives(sockets[0]!, "s6");
  });

  it("closes sockets past the per-address cap with 4420 before any token is read; other addresses are served", async () => {
    for (let i = 0; i < 4; i += 1) await open("127.0.0.5");
    const fifth = await open("127.0.0.5");
    expect(await fifth.closed).toEqual({ code: 4420, reason: "Too many connections" });
    expect((await connect(token, "127.0.0.6")).first).toMatchObject({ type: "connection_ack" });
  });

  it("counts the client a trusted proxy names, not the proxy, and ignores what the client wrote further left", async () => {
    for (let i = 0; i < 4; i += 1) await open("127.0.0.8", "graphql-transport-ws", "203.0.113.7");
    // The client writes an entry of its own to look like someone else: the proxy's entry still names it.
    const forged = await open("127.0.0.8", "graphql-transport-ws", "198.51.100.1, 203.0.113.7");
    expect(await forged.closed).toEqual({ code: 4420, reason: "Too many connections" });
    // Another client behind the same proxy is served.
    const other = await open("127.0.0.8", "graphql-transport-ws", "203.0.113.8");
    other.socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: readerToken } }));
    expect(await other.next((message) => message.type === "connection_ack")).toEqual({ type: "connection_ack" });
  });

  it("refuses subscriptions past the per-address cap over several subjects", async () => {
    const first = await connect(token, "127.0.0.7");
    const second = await connect(readerToken, "127.0.0.7");
    for (let i = 0; i < 5; i += 1) subscribe(first, `a${i}`);
    for (let i = 0; i < 2; i += 1) subscribe(second, `b${i}`);
    await expect.poll(running, { timeout: 15_000 }).toBe(7);
    subscribe(second, "b2");
    expect(await second.next((message) => message.id === "b2")).toMatchObject({
      type: "error",
      payload: [{ extensions: { code: "LIMIT_EXCEEDED", limit: "maxSubscriptionsPerAddress", allowed: 7 } }],
    });
  });

  it("closes sockets past the replica's cap with 1013 and refuses subscriptions past its cap", async () => {
    const subjects = [token, readerToken, auditorToken];
    const sockets = [];
    for (let i = 0; i < 9; i += 1) sockets.push(await connect(subjects[i % 3]!, `127.0.1.${Math.floor(i / 3) + 1}`));
    expect(sockets.every(({ first }) => (first as { type?: string }).type === "connection_ack")).toBe(true);
    // Ten sockets are the replica's cap; the eleventh, from an address and subject with room, is refused.
    await open("127.0.1.4");
    const eleventh = await open("127.0.1.5");
    expect(await eleventh.closed).toEqual({ code: 1013, reason: "Try again later" });
    for (let i = 0; i < 10; i += 1) subscribe(sockets[i % 9]!, `r${i}`);
    await expect.poll(running, { timeout: 15_000 }).toBe(10);
    subscribe(sockets[8]!, "r10");
    expect(await sockets[8]!.next((message) => message.id === "r10")).toMatchObject({
      type: "error",
      payload: [
        {
          message: "This gateway runs as many subscriptions as it may; try again later.",
          extensions: { code: "LIMIT_EXCEEDED", limit: "maxSubscriptions", allowed: 10 },
        },
      ],
    });
  });
});
