import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSubgraphFetcher, type SubgraphFetcher } from "../src/identity-propagation/subgraph-fetcher.js";

/**
 * The subgraph client shares one call among identical queries in flight. Threat: one caller
 * receiving a response computed for another caller's identity or roles, or a mutation running
 * once where it was asked for twice. Each case is sent as the gateway sends it (the body starting
 * with the operation text) to a real server. The calls of one case are made in the same tick, so
 * they overlap however fast the server answers: no delay is needed.
 */
describe("in-flight deduplication of subgraph queries", () => {
  let server: Server;
  let url: string;
  let calls: { authorization: string | undefined; body: string }[] = [];
  let subgraph: SubgraphFetcher;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        calls.push({ authorization: request.headers.authorization, body });
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ data: { caller: request.headers.authorization ?? null, call: calls.length } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    subgraph = createSubgraphFetcher();
  });
  afterAll(async () => {
    await subgraph.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = async (body: string, authorization: string, requestId = "r", traceparent?: string) => {
    const headers = { "content-type": "application/json", authorization, "x-request-id": requestId, ...(traceparent ? { traceparent } : {}) };
    const response = await subgraph.fetcher(url, { method: "POST", headers, body });
    return (await response.json()) as { data: { caller: string; call: number } };
  };
  const query = JSON.stringify({ query: "query Page { proofs { id } }", variables: {} });

  it("shares one call among identical queries of one identity, giving each caller its own copy", async () => {
    calls = [];
    const [first, second] = await Promise.all([send(query, "Bearer alice", "r1"), send(query, "Bearer alice", "r2")]);
    expect(calls).toHaveLength(1);
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });

  it("shares across callers' own trace contexts too (a traceparent differs per caller and selects nothing)", async () => {
    calls = [];
    await Promise.all([
      send(query, "Bearer alice", "r1", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
      send(query, "Bearer alice", "r2", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"),
    ]);
    expect(calls).toHaveLength(1);
  });

  it("never shares a response between two identities", async () => {
    calls = [];
    const [alice, mallory] = await Promise.all([send(query, "Bearer alice"), send(query, "Bearer mallory")]);
    expect(calls).toHaveLength(2);
    expect(alice.data.caller).toBe("Bearer alice");
    expect(mallory.data.caller).toBe("Bearer mallory");
  });

  it("sends every mutation, even identical ones at the same moment", async () => {
    calls = [];
    const mutation = JSON.stringify({ query: "mutation Request { requestProof { id } }", variables: {} });
    await Promise.all([send(mutation, "Bearer alice"), send(mutation, "Bearer alice")]);
    expect(calls).toHaveLength(2);
  });

  it("keeps nothing once the call is answered: a later identical query is sent again", async () => {
    calls = [];
    await send(query, "Bearer alice");
    await send(query, "Bearer alice");
    expect(calls).toHaveLength(2);
  });
});
