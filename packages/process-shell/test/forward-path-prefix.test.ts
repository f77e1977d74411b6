import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardPathPrefix } from "../src/forward-path-prefix.js";
import { RouteTable } from "../src/route-table.js";

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe("forwardPathPrefix, between two real servers", () => {
  let seen: IncomingHttpHeaders = {};
  const target = createServer((request, response) => {
    seen = request.headers;
    if (request.url?.endsWith("/stream")) {
      // An event stream: the head and the first event go out before the answer ends.
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      request.on("close", () => response.end());
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" }).end(request.url);
  });
  let front: Server;
  let frontUrl: string;
  beforeAll(async () => {
    const forward = new RouteTable([forwardPathPrefix("/portal/", await listen(target))]);
    front = createServer((request, response) => {
      void forward.answer(request, response, "test").then((handled) => handled || response.writeHead(404).end());
    });
    frontUrl = await listen(front);
  });
  afterAll(async () => {
    front.closeAllConnections();
    target.closeAllConnections();
    await Promise.all([front, target].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  it("appends the caller to x-forwarded-for, passes the page's headers and nothing identifying the caller", async () => {
    const answer = await fetch(`${frontUrl}/portal/x?y=1`, {
      headers: {
        "x-forwarded-for": "203.0.113.5",
        "accept-language": "de-CH",
        "if-none-match": '"abc"',
        "cache-control": "no-cache",
        authorization: "Bearer secret",
        cookie: "session=1",
      },
    });
    expect(await answer.text()).toBe("/portal/x?y=1");
    expect(seen).toMatchObject({
      "x-forwarded-for": "203.0.113.5, 127.0.0.1",
      "accept-language": "de-CH",
      "if-none-match": '"abc"',
      "cache-control": "no-cache",
    });
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    await fetch(`${frontUrl}/portal/x`);
    expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
    expect((await fetch(`${frontUrl}/elsewhere`)).status).toBe(404);
  });

  it("streams an event stream's first event before the answer ends", async () => {
    const answer = await fetch(`${frontUrl}/portal/stream`);
    const reader = answer.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe("data: first\n\n");
    await reader.cancel();
  });
});
