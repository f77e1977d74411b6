/**
 * Security regressions of subscriptions, each written as the attack it stops: sockets opened at the
 * gateway without a valid token, kept open past the token's expiry, or asking for fields the
 * caller's roles do not allow; and sockets opened on the aopd subgraph directly, around the gateway.
 */
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDevSigningKey } from "@compliance-graph/dev-identity-provider";
import { createInternalTokenMinter } from "@compliance-graph/identity";
import { decodeClaims, signToken } from "../support/craft-token.js";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { conditionWaiters } from "./support/condition-waiters.js";
import { closeOf, legacyClient, modernClient, subscribeLegacy, subscribeModern, wsUrl } from "./support/subscription-clients.js";

const proofs = "subscription { aopdProofs { id } }";

describe("subscription attacks", () => {
  let stack: Stack;
  let providerKey: Awaited<ReturnType<typeof generateDevSigningKey>>;
  let genuine: string;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    providerKey = await generateDevSigningKey("provider-key-sub");
    stack = await startStack({
      signingKeys: [providerKey],
      realAopd: { databaseUrl: await createTestDatabase("subscription-attacks"), seedDemoProofs: 0 },
      extraClients: [
        { clientId: "travel-only", clientSecret: "travel-secret", roles: ["travel-rule:read"] },
        { clientId: "proofs-only", clientSecret: "proofs-secret", roles: ["proofs:read"] },
      ],
    });
    genuine = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  /** Opens a raw socket, sends `connection_init` with `payload`, and returns how the socket closed. */
  async function handshake(protocol: string, payload: unknown) {
    const socket = new WebSocket(wsUrl(stack.gateway.url), protocol);
    const messages: unknown[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    const closed = closeOf(socket);
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init", payload }));
    return { ...(await closed), messages };
  }

  it("closes a graphql-transport-ws socket with 4401 when connection_init has no token, a forged one or a foreign one", async () => {
    const forged = await signToken((await generateDevSigningKey("attacker")) as never, { ...decodeClaims(genuine), exp: now() + 300 });
    const foreign = await signToken(providerKey, { ...decodeClaims(genuine), aud: "some-other-api", exp: now() + 300 });
    const expired = await signToken(providerKey, { ...decodeClaims(genuine), iat: now() - 7200, exp: now() - 3600 });
    for (const payload of [
      undefined,
      {},
      { bearer_token: "" },
      { bearer_token: "not.a.jwt" },
      { bearer_token: forged },
      { bearer_token: foreign },
      { bearer_token: expired },
      { authorization: `Bearer ${genuine}` },
    ]) {
      const { code, messages } = await handshake("graphql-transport-ws", payload);
      expect(code).toBe(4401);
      expect(messages).toEqual([]);
    }
  });

  it("answers a legacy socket without a valid token with connection_error, then closes it with 4401", async () => {
    const { code, messages } = await handshake("graphql-ws", { bearer_token: "not.a.jwt" });
    expect(code).toBe(4401);
    expect(messages).toEqual([
      { type: "connection_error", payload: { message: "A valid bearer token is required.", extensions: { code: "UNAUTHENTICATED" } } },
    ]);
  });

  it("answers a subscription posted over HTTP with BAD_REQUEST pointing to the WebSocket endpoint", async () => {
    const { status, body } = await stack.query("subscription { aopdProofs { id } }", genuine);
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_REQUEST" } });
    expect(body.errors?.[0]?.message).toMatch(/WebSocket at \/graphql/);
  });

  it("refuses a subscribe sent before connection_init was acknowledged", async () => {
    for (const [protocol, message] of [
      ["graphql-transport-ws", { type: "subscribe", id: "1", payload: { query: proofs } }],
      ["graphql-ws", { type: "start", id: "1", payload: { query: proofs } }],
    ] as const) {
      const socket = new WebSocket(wsUrl(stack.gateway.url), protocol);
      const closed = closeOf(socket);
      await new Promise((resolve) => socket.once("open", resolve));
      socket.send(JSON.stringify(message));
      expect((await closed).code).toBe(4401);
    }
  });

  it("closes the connection with 4440 when the token expires, on both subprotocols", async () => {
    const shortLived = await signToken(providerKey, { ...decodeClaims(genuine), iat: now(), exp: now() + 2 });
    const socket = new WebSocket(wsUrl(stack.gateway.url), "graphql-transport-ws");
    const closed = closeOf(socket);
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: shortLived } }));
    const legacy = new WebSocket(wsUrl(stack.gateway.url, "/graphql-ws"), "graphql-ws");
    const legacyClosed = closeOf(legacy);
    await new Promise((resolve) => legacy.once("open", resolve));
    legacy.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: shortLived } }));
    expect(await closed).toEqual({ code: 4440, reason: "Token expired" });
    expect(await legacyClosed).toEqual({ code: 4440, reason: "Token expired" });
  });

  it("refuses, per subscription, a caller without proofs:read, and keeps its socket open", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), await stack.fetchToken("travel-only", "travel-secret"));
    try {
      const refused = subscribeModern(client, proofs);
      await refused.until((state) => state.error !== undefined);
      expect(refused.error).toEqual([
        { message: 'Subscription.aopdProofs requires the role "proofs:read".', extensions: { code: "FORBIDDEN", requiredRole: "proofs:read" } },
      ]);
      const legacy = legacyClient(wsUrl(stack.gateway.url), await stack.fetchToken("travel-only", "travel-secret"));
      const legacyRefused = subscribeLegacy(legacy, proofs);
      await legacyRefused.until((state) => state.error !== undefined);
      expect(legacyRefused.error).toEqual(expect.objectContaining({ extensions: { code: "FORBIDDEN", requiredRole: "proofs:read" } }));
      legacy.close();
    } finally {
      await client.dispose();
    }
  });

  it("refuses a selection of trpd's field on proofs to a caller without travel-rule:read", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), await stack.fetchToken("proofs-only", "proofs-secret"));
    try {
      const refused = subscribeModern(client, "subscription { aopdProofs { id travelRuleTransfers { address } } }");
      await refused.until((state) => state.error !== undefined);
      expect(refused.error).toEqual([expect.objectContaining({ extensions: { code: "FORBIDDEN", requiredRole: "travel-rule:read" } })]);
    } finally {
      await client.dispose();
    }
  });

  describe("the aopd subgraph's socket, reached directly", () => {
    const aopdSocket = () => new WebSocket(stack.subgraphUrls.aopd.replace(/^http/, "ws"), "graphql-transport-ws");
    async function initAopd(payload: unknown) {
      const socket = aopdSocket();
      const messages: unknown[] = [];
      const waiters = conditionWaiters(
        () => messages,
        () => `received ${JSON.stringify(messages)}`,
      );
      socket.on("message", (data) => {
        messages.push(JSON.parse(String(data)));
        waiters.changed();
      });
      const closed = closeOf(socket);
      await new Promise((resolve) => socket.once("open", resolve));
      socket.send(JSON.stringify({ type: "connection_init", payload }));
      const until = (count: number) => waiters.until((received) => received.length >= count, 10_000);
      return { socket, closed, messages, until };
    }

    it("closes with 4401 without an internal token, with the caller's access token, or with a token minted for trpd", async () => {
      const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
      const forTrpd = await mint({ subject: "attacker", client: "attacker", roles: ["proofs:read"] }, "trpd");
      for (const payload of [undefined, { bearer_token: genuine }, { authorization: `Bearer ${genuine}` }, { authorization: `Bearer ${forTrpd}` }]) {
        const { closed, messages } = await initAopd(payload);
        expect((await closed).code).toBe(4401);
        expect(messages).toEqual([]);
      }
    });

    it("refuses a subscription to a genuine internal identity without proofs:read", async () => {
      const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
      const token = await mint({ subject: "s", client: "c", roles: ["travel-rule:read"] }, "aopd");
      const { socket, messages, until } = await initAopd({ authorization: `Bearer ${token}` });
      await until(1);
      socket.send(JSON.stringify({ type: "subscribe", id: "1", payload: { query: proofs } }));
      await until(2);
      // The end marker: a second subscription's refusal; anything more for the first comes before it.
      socket.send(JSON.stringify({ type: "subscribe", id: "2", payload: { query: proofs } }));
      await until(3);
      socket.close();
      const refusal = { message: 'Subscription.aopdProofs requires the role "proofs:read".', extensions: { code: "FORBIDDEN", requiredRole: "proofs:read" } };
      expect(messages).toEqual([{ type: "connection_ack" }, { type: "error", id: "1", payload: [refusal] }, { type: "error", id: "2", payload: [refusal] }]);
    });
  });
});
