import { readFile, writeFile } from "node:fs/promises";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { awaitLive, proofIdOf } from "./support/await-live.js";
import { conditionWaiters } from "./support/condition-waiters.js";
import { openProofWriter, type ProofWriter } from "./support/proof-writer.js";
import { closeOf, modernClient, subscribeModern, wsUrl } from "./support/subscription-clients.js";

const byCustomer = (customerId: string) =>
  `subscription { aopdProofs(filter: { is: { any: { customerId: { eq: "${customerId}" } } } }) { id ... on AopdSignatureProof { message } } }`;

describe("subscription limits and lifecycle", () => {
  let stack: Stack;
  let writer: ProofWriter;
  let token: string;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("subscription-limits");
    stack = await startStack({
      realAopd: { databaseUrl, seedDemoProofs: 0 },
      subscriptions: { connectionInitTimeoutMs: 1_000, maxMessageBytes: 4_096, maxSubscriptionsPerConnection: 2, maxBufferedBytes: 262_144 },
    });
    writer = await openProofWriter(databaseUrl);
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    await writer?.close();
    await stack?.close();
  });

  async function open(protocol: string, path = "/graphql") {
    const socket = new WebSocket(wsUrl(stack.gateway.url, path), protocol);
    const closed = closeOf(socket);
    await new Promise((resolve) => socket.once("open", resolve));
    return { socket, closed };
  }

  it("closes a socket that sends no connection_init within the init timeout (4408), on both subprotocols", async () => {
    for (const protocol of ["graphql-transport-ws", "graphql-ws"]) {
      const { closed } = await open(protocol);
      expect((await closed).code).toBe(4408);
    }
  });

  it("closes a socket that sends a message over the size limit (1009)", async () => {
    const { socket, closed } = await open("graphql-transport-ws");
    socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: token, padding: "x".repeat(8_192) } }));
    expect((await closed).code).toBe(1009);
  });

  it("refuses a subscription past the per-connection maximum with LIMIT_EXCEEDED, and keeps the others", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const first = subscribeModern(client, byCustomer("c-max"));
      subscribeModern(client, byCustomer("c-max-2"));
      const third = subscribeModern(client, byCustomer("c-max-3"));
      await third.until((state) => state.error !== undefined);
      expect(third.error).toEqual([expect.objectContaining({ extensions: { code: "LIMIT_EXCEEDED", limit: "maxSubscriptionsPerConnection", allowed: 2 } })]);
      await awaitLive(writer, first, { customerId: "c-max" });
    } finally {
      await client.dispose();
    }
  });

  it("closes the socket of a client that stops reading once its unread results pass the buffered limit (4413)", async () => {
    // A second subscriber that keeps reading tells when the gateway has handed out every event.
    const watcherClient = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const watcher = subscribeModern(watcherClient, byCustomer("c-slow"));
      await awaitLive(writer, watcher, { customerId: "c-slow" });
      const { socket, closed } = await open("graphql-transport-ws");
      const received: string[] = [];
      const waiters = conditionWaiters(
        () => received,
        () => `received ${received.length} messages`,
      );
      socket.on("message", (data) => {
        received.push(String(data));
        waiters.changed();
      });
      socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: token } }));
      await waiters.until((messages) => messages.length >= 1, 10_000);
      socket.send(JSON.stringify({ type: "subscribe", id: "slow", payload: { query: byCustomer("c-slow") } }));
      for (let attempt = 0; received.length < 2; attempt += 1) {
        if (attempt === 50) throw new Error("The slow subscription never went live.");
        const before = received.length;
        await writer.create({ customerId: "c-slow" });
        await waiters.until((messages) => messages.length > before, 300).catch(() => undefined);
      }
      // The client stops reading; the kernel's buffers fill, then the gateway's queue for it.
      (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const message = "m".repeat(200_000);
      let last = "";
      for (let i = 0; i < 80; i += 1) last = (await writer.create({ customerId: "c-slow", message })).id;
      await watcher.until((state) => state.results.some((result) => proofIdOf(result) === last), 30_000);
      (socket as unknown as { _socket: { resume(): void } })._socket.resume();
      expect(await closed).toEqual({ code: 4413, reason: "Slow consumer" });
      expect(received.length).toBeLessThan(80);
    } finally {
      await watcherClient.dispose();
    }
  });

  it("completes running subscriptions with an error naming the reload when the supergraph changes, and serves new ones", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const running = subscribeModern(client, byCustomer("c-reload"));
      await awaitLive(writer, running, { customerId: "c-reload" });
      const original = await readFile(stack.supergraphPath, "utf8");
      await writeFile(stack.supergraphPath, `${original}\n# a new deployment\n`);
      await stack.gateway.reloadSupergraph();
      await running.until((state) => state.error !== undefined);
      expect(running.error).toEqual([
        {
          message: "The gateway loaded a new version of the supergraph; subscribe again.",
          extensions: { code: "SERVICE_UNAVAILABLE", reason: "SUPERGRAPH_RELOADED" },
        },
      ]);
      const next = subscribeModern(client, byCustomer("c-reload"));
      await awaitLive(writer, next, { customerId: "c-reload" });
    } finally {
      await client.dispose();
    }
  });
});
