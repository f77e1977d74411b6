import { readFile, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeSubgraphs } from "@compliance-graph/gateway";
import { pollUntil } from "@compliance-graph/test-kit";
import { trpdSchemaFile } from "@compliance-graph/trpd";
import { aopdStandInSchemaFile } from "../support/aopd-stand-in.js";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The attack: a caller sends exactly the query another caller has in flight, hoping the gateway's
 * sharing of identical requests (GATEWAY_SHARE_REQUESTS, on by default) hands it the answer
 * computed for the other caller's identity and roles. Sharing must only ever join requests of the
 * same identity: here trpd is held until the gateway has sent it one call per caller, each with the
 * internal token of its own caller; were the two requests joined, the second call would never come.
 * The same attack across a change of the supergraph: a request that arrives once a new version
 * guards a field with a role must be checked against it, not joined to an execution authorized
 * on the old version.
 */
describe("sharing of identical requests in flight", () => {
  let stack: Stack;
  let hold: HoldingProxy;
  beforeAll(async () => {
    hold = await startHoldingProxy();
    stack = await startStack({
      // The same roles as the development API client, another identity.
      extraClients: [{ clientId: "second-officer", clientSecret: "second-secret", roles: ["travel-rule:read", "proofs:read"] }],
      subgraphUrlOverrides: { trpd: hold.url },
    });
    hold.target = stack.subgraphUrls.trpd;
  });
  afterAll(async () => {
    await stack?.close();
    await hold?.close();
  });

  const query = "{ trpd { vasps { name } } }";

  it("never joins two callers with different identities, even with the same query, body and roles", async () => {
    const [first, second] = [await stack.fetchToken(), await stack.fetchToken("second-officer", "second-secret")];
    hold.reset();
    const answers = Promise.all([stack.query(query, first), stack.query(query, second)]);
    const calls = await pollUntil(
      "one trpd call per caller",
      async () => hold.calls.length,
      (count) => count >= 2,
      { timeoutMs: 30_000 },
    );
    expect(calls).toBe(2);
    expect(new Set(hold.calls.map((call) => decodeJwt(call.token).sub))).toEqual(new Set([decodeJwt(first).sub, decodeJwt(second).sub]));
    hold.release();
    for (const answer of await answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
    }
  });

  it("joins the same caller's identical queries into one execution, counted in gateway_shared_requests_total", async () => {
    const token = await stack.fetchToken();
    hold.reset();
    const before = await sharedCount(stack);
    const answers = Promise.all([stack.query(query, token), stack.query(query, token)]);
    await pollUntil(
      "the second request joining the first",
      () => sharedCount(stack),
      (count) => count === before + 1,
      { timeoutMs: 30_000 },
    );
    hold.release();
    const [a, b] = await answers;
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(hold.calls).toHaveLength(1);
  });

  it("never joins a request that arrives after a new supergraph guards the field to an execution authorized on the old one", async () => {
    const token = await stack.fetchToken();
    const original = await readFile(stack.supergraphPath, "utf8");
    // The next version of trpd guards the VASP list with a role this caller was never granted.
    const guardedSchema = `${stack.supergraphPath}.trpd-guarded.graphql`;
    const trpdSdl = await readFile(trpdSchemaFile, "utf8");
    const guarded = trpdSdl.replace(/^(\s*vasps: \[TrpdVasp!\]!)/m, '$1 @requiresRole(role: "travel-rule:restricted")');
    expect(guarded).not.toBe(trpdSdl);
    await writeFile(guardedSchema, guarded);
    hold.reset();
    try {
      const first = stack.query(query, token);
      await pollUntil(
        "the first request held at trpd",
        async () => hold.calls.length,
        (count) => count === 1,
        { timeoutMs: 30_000 },
      );
      await writeFile(
        stack.supergraphPath,
        await composeSubgraphs([
          { name: "aopd", routingUrl: "http://localhost:4001/graphql", schemaFile: aopdStandInSchemaFile },
          { name: "trpd", routingUrl: "http://localhost:4002/graphql", schemaFile: guardedSchema },
        ]),
      );
      await stack.gateway.reloadSupergraph();
      const before = await sharedCount(stack);
      let settled = false;
      const second = stack.query(query, token).finally(() => (settled = true));
      await pollUntil(
        "the second request answered or joined to the first",
        async () => settled || (await sharedCount(stack)) > before,
        (done) => done,
        { timeoutMs: 30_000 },
      );
      hold.release();
      expect((await first).body.errors).toBeUndefined();
      const refused = await second;
      expect(refused.status).toBe(403);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect(refused.body.errors?.[0]?.message).toContain("travel-rule:restricted");
    } finally {
      hold.release();
      await writeFile(stack.supergraphPath, original);
      await stack.gateway.reloadSupergraph();
    }
  });

  it("never joins mutations", async () => {
    const token = await stack.fetchToken();
    const before = await sharedCount(stack);
    // A mutation the gateway refuses or answers: either way each request is its own execution.
    const mutation = "mutation { __typename }";
    await Promise.all([stack.query(mutation, token), stack.query(mutation, token)]);
    expect(await sharedCount(stack)).toBe(before);
  });
});

async function sharedCount(stack: Stack): Promise<number> {
  const text = await (await fetch(stack.gateway.metricsUrl)).text();
  return Number(/^gateway_shared_requests_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

interface HoldingProxy {
  url: string;
  target: string;
  calls: { token: string }[];
  reset(): void;
  release(): void;
  close(): Promise<void>;
}

/** A proxy in front of trpd that holds every call until released, recording whose token it carried. */
async function startHoldingProxy(): Promise<HoldingProxy> {
  let waiting: (() => void)[] = [];
  let released = true;
  const proxy: HoldingProxy = {
    url: "",
    target: "",
    calls: [],
    reset() {
      proxy.calls.length = 0;
      released = false;
    },
    release() {
      released = true;
      for (const go of waiting) go();
      waiting = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const forward = (
    incoming: IncomingMessage,
    body: Buffer,
    respond: (status: number, headers: Record<string, string | string[] | undefined>, body: Buffer) => void,
  ) => {
    const target = new URL(proxy.target);
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: incoming.method, headers: incoming.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => respond(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)));
      },
    );
    outgoing.end(body);
  };
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const isQuery = body.toString().includes("vasps");
      const go = () => forward(incoming, body, (status, headers, answer) => response.writeHead(status, headers).end(answer));
      if (!isQuery) return go();
      proxy.calls.push({ token: String(incoming.headers.authorization).replace(/^Bearer /, "") });
      if (released) go();
      else waiting.push(go);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return proxy;
}
