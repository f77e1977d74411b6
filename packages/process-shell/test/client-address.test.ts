import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress } from "../src/client-address.js";

describe("clientAddress, on a real server", () => {
  let url: string;
  let seen: (request: IncomingMessage) => unknown;
  const server = createServer((request, response) => {
    response.end(JSON.stringify(seen(request)));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const addressesFor = async (forwardedFor: string | undefined) => {
    seen = (request) => [0, 1, 2, 5].map((hops) => clientAddress(request, hops));
    const response = await fetch(url, { headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } });
    return response.json();
  };

  it("ignores x-forwarded-for without trusted hops, and reads only as far as the trusted hops appended", async () => {
    // The client wrote "6.6.6.6"; a first proxy appended 198.51.100.7, a second 10.0.0.2, and the
    // socket is the last proxy (here the test client on loopback).
    expect(await addressesFor("6.6.6.6, 198.51.100.7,10.0.0.2")).toEqual(["127.0.0.1", "10.0.0.2", "198.51.100.7", "6.6.6.6"]);
    expect(await addressesFor(undefined)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    expect(await addressesFor("203.0.113.9")).toEqual(["127.0.0.1", "203.0.113.9", "203.0.113.9", "203.0.113.9"]);
  });
});
