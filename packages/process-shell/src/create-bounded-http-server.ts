import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connectionLimitsFromEnv, connectionsCheckingIntervalMs, type ConnectionLimits } from "./connection-limits.js";

export interface BoundedHttpServer {
  server: Server;
  /** Connections from `address` open right now, as the server counts them for its cap. */
  connectionsFrom(address: string): number;
  /**
   * A drain began (the deployable is stopping): every answer not yet begun carries
   * `Connection: close`, and a connection whose answer was already under way is closed once it
   * ends, so keep-alive clients open their next connection to another replica.
   */
  drain(): void;
}

/**
 * An HTTP server whose connections are bounded (see `ConnectionLimits` for the threat): a header
 * deadline and a request deadline, checked every second, and at most `maxConnectionsPerAddress`
 * open connections per remote address, the next one closed as soon as it is accepted. Node 20 and
 * 24 both end a socket that trickles header lines at the header deadline once it is set
 * explicitly (`connection-limits.test.ts` checks both); their defaults (60 s, checked every 30 s)
 * let one client hold sockets for up to 90 s each.
 */
export function createBoundedHttpServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: { limits?: ConnectionLimits; onRefused?: (address: string) => void } = {},
): BoundedHttpServer {
  const limits = options.limits ?? connectionLimitsFromEnv();
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: connectionsCheckingIntervalMs,
  });

  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = open.get(address) ?? 0;
    if (limits.maxConnectionsPerAddress > 0 && count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      options.onRefused?.(address);
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });

  let draining = false;
  // Answers in flight, so that a drain can still turn their keep-alive off.
  const inFlight = new Set<ServerResponse>();
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close");
    else response.once("finish", () => response.req.socket.end());
  };
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (draining) {
      closeAfter(response);
    } else {
      inFlight.add(response);
      response.once("close", () => inFlight.delete(response));
    }
    handler(request, response);
  });

  return {
    server,
    connectionsFrom: (address) => open.get(address) ?? 0,
    drain() {
      draining = true;
      for (const response of inFlight) closeAfter(response);
      inFlight.clear();
    },
  };
}
