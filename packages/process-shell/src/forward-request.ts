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
 * Forwards one request to the same path on `target`, streaming both bodies (so server-sent events
 * flow as they are written and an upload or download of any size passes in constant memory). Only
 * the headers a plain HTTP exchange needs travel, plus `x-forwarded-for` with the caller's socket
 * address appended, as a proxy does (the target trusts that entry only when configured to trust
 * this hop), plus `extraHeaders` (the gateway's internal identity token). Nothing else identifying
 * the caller is added: in particular the caller's own `Authorization` never travels.
 */
export function forwardRequest(request: IncomingMessage, response: ServerResponse, target: URL, extraHeaders: Record<string, string> = {}): Promise<void> {
  return new Promise<void>((resolve) => {
    const headers: Record<string, string> = {};
    for (const name of forwardedHeaders) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const prior = request.headers["x-forwarded-for"];
    const socketAddress = request.socket.remoteAddress ?? "unknown";
    headers["x-forwarded-for"] = typeof prior === "string" && prior.trim() !== "" ? `${prior}, ${socketAddress}` : socketAddress;
    Object.assign(headers, extraHeaders);
    const upstream = httpRequest(
      { protocol: target.protocol, hostname: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        // An event stream's first bytes must not wait for more: send the head at once.
        response.flushHeaders();
        answer.pipe(response);
        answer.on("end", () => resolve());
        // The target broke off (a download that failed its integrity check): so does the answer,
        // so that the caller sees a truncated transfer rather than a complete-looking one.
        answer.on("aborted", () => response.destroy());
        answer.on("error", () => (response.destroy(), resolve()));
      },
    );
    upstream.on("error", () => {
      if (!response.headersSent) {
        response.writeHead(502, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "upstream_unavailable" }));
      } else response.destroy();
      resolve();
    });
    // A caller that goes away (a closed page's event stream, an interrupted upload) releases the upstream request too.
    response.on("close", () => {
      if (!response.writableFinished) upstream.destroy();
      resolve();
    });
    request.on("aborted", () => upstream.destroy());
    request.pipe(upstream);
  });
}
