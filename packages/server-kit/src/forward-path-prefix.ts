import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * A route that forwards every request under `pathPrefix` to another server, streaming both
 * bodies: what an ingress does when one base URL fronts several deployables. Only the headers a
 * plain HTTP exchange needs travel; nothing identifying the caller is added.
 */
export function forwardPathPrefix(pathPrefix: string, target: string) {
  const base = new URL(target);
  return (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    if (!(request.url ?? "").startsWith(pathPrefix)) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "content-length", "x-request-id", "user-agent"]) {
        const value = request.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const upstream = httpRequest(
        { protocol: base.protocol, hostname: base.hostname, port: base.port, method: request.method, path: request.url, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.on("end", () => resolve(true));
        },
      );
      upstream.on("error", () => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "upstream_unavailable" }));
        resolve(true);
      });
      request.pipe(upstream);
    });
  };
}
