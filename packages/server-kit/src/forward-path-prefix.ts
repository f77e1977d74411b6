import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";

/** The request headers that travel: what a plain HTTP exchange (and a cached, compressed page) needs. */
const forwardedHeaders = [
  "content-type",
  "content-length",
  "x-request-id",
  "user-agent",
  "accept",
  "accept-encoding",
  "accept-language",
  "if-none-match",
  "cache-control",
];

/**
 * A route that forwards every request under `pathPrefix` to another server, streaming both
 * bodies (so server-sent events flow as they are written): what an ingress does when one base URL
 * fronts several deployables. Only the headers a plain HTTP exchange needs travel, plus
 * `x-forwarded-for` with the caller's socket address appended, as a proxy does; the target trusts
 * that entry only when configured to trust this hop. Nothing else identifying the caller is added.
 */
export function forwardPathPrefix(pathPrefix: string, target: string) {
  const base = new URL(target);
  return (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    if (!(request.url ?? "").startsWith(pathPrefix)) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const headers: Record<string, string> = {};
      for (const name of forwardedHeaders) {
        const value = request.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const prior = request.headers["x-forwarded-for"];
      const socketAddress = request.socket.remoteAddress ?? "unknown";
      headers["x-forwarded-for"] = typeof prior === "string" && prior.trim() !== "" ? `${prior}, ${socketAddress}` : socketAddress;
      const upstream = httpRequest(
        { protocol: base.protocol, hostname: base.hostname, port: base.port, method: request.method, path: request.url, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          // An event stream's first bytes must not wait for more: send the head at once.
          response.flushHeaders();
          answer.pipe(response);
          answer.on("end", () => resolve(true));
          answer.on("error", () => resolve(true));
        },
      );
      upstream.on("error", () => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "upstream_unavailable" }));
        resolve(true);
      });
      // A caller that goes away (a closed page's event stream) releases the upstream request too.
      response.on("close", () => {
        if (!response.writableFinished) upstream.destroy();
        resolve(true);
      });
      request.pipe(upstream);
    });
  };
}
