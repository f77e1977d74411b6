import type { IncomingHttpHeaders } from "node:http";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The attack: a client sends headers that claim an identity (a forged internal token, a user or
 * role header some proxies trust) hoping the gateway passes them to a subgraph. The gateway must
 * build each subgraph request from scratch: the only identity a subgraph sees is the internal
 * token the gateway minted for the caller it verified.
 */
describe("identity headers from clients", () => {
  let stack: Stack;
  const seen: { subgraph: string; headers: IncomingHttpHeaders }[] = [];
  beforeAll(async () => {
    stack = await startStack({ onSubgraphRequest: (subgraph, headers) => seen.push({ subgraph, headers }) });
  });
  afterAll(() => stack?.close());

  it("never reach a subgraph; the subgraph sees only the gateway's token for the verified caller", async () => {
    const token = await stack.fetchToken();
    const forged = {
      "x-internal-identity": "forged",
      "x-forwarded-user": "admin",
      "x-user-roles": "proofs:write",
      "x-identity-token": "forged",
      "x-forwarded-authorization": `Bearer ${token}`,
      "x-request-id": "attack-trace-1",
    };
    seen.length = 0;
    const response = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...forged },
      body: JSON.stringify({ query: "{ trpd { vasps { name } } }" }),
    });
    expect(response.status).toBe(200);
    const trpdRequests = seen.filter((entry) => entry.subgraph === "trpd");
    expect(trpdRequests.length).toBeGreaterThan(0);
    for (const { headers } of trpdRequests) {
      for (const name of Object.keys(forged).filter((header) => header !== "x-request-id")) expect(headers[name], name).toBeUndefined();
      const internal = String(headers.authorization).replace(/^Bearer /, "");
      expect(internal).not.toBe(token);
      const claims = decodeJwt(internal);
      expect(claims.aud).toBe("trpd");
      expect(claims.sub).toBe(decodeJwt(token).sub);
      // The request id is the one thing passed on, so logs of one request line up across services.
      expect(headers["x-request-id"]).toBe("attack-trace-1");
    }
  });
});
