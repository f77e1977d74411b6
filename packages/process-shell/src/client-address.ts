import type { IncomingMessage } from "node:http";

/**
 * The address of the client a request comes from, for limits per client. Threat: a client that
 * writes its own `x-forwarded-for` to look like many clients (escaping a per-address limit) or
 * like someone else (exhausting their limit). The header is read only as far as `trustedProxyHops`
 * proxies we run appended to it: with n trusted hops the client is the address the outermost of
 * them saw, the n-th entry from the right counting the socket as the first; anything further left
 * was written by the client and is ignored. With 0 hops the header is ignored altogether.
 */
export function clientAddress(request: IncomingMessage, trustedProxyHops: number): string {
  const socketAddress = request.socket.remoteAddress ?? "unknown";
  if (trustedProxyHops <= 0) return socketAddress;
  const header = request.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // Nearest first: the socket, then the entries from right to left.
  const chain = [socketAddress, ...forwarded.reverse()];
  return chain[Math.min(trustedProxyHops, chain.length - 1)]!;
}
