/**
 * The bounds on what one TCP connection to a public listener can hold. Threat: a slowloris, a client
 * that opens sockets and sends its request a header line at a time (or nothing at all), never
 * enough to be answered and never idle long enough to be dropped; with enough sockets it exhausts
 * the process's file descriptors, after which customers cannot connect and the process cannot
 * open database connections. No rate limit sees it, since no request is ever complete. The header
 * deadline ends each such socket; the per-address cap stops one client from holding more than a
 * share of them at once.
 */
export interface ConnectionLimits {
  /**
   * `HTTP_HEADERS_TIMEOUT_MS`: time a connection has, from the start of a request (for a new
   * connection: from its opening), to finish sending that request's headers; past it the server
   * answers 408 and closes the socket, however steadily the client trickles.
   * @default 10_000 // 10 seconds
   */
  headersTimeoutMs: number;
  /**
   * `HTTP_REQUEST_TIMEOUT_MS`: time a connection has to send one whole request, headers and body
   * (uploads included); past it 408 and the socket is closed. Not the time to answer.
   * @default 300_000 // 5 minutes
   */
  requestTimeoutMs: number;
  /**
   * `HTTP_MAX_CONNECTIONS_PER_ADDRESS`: open connections (WebSockets included) from one remote
   * address; one more is closed as soon as it is accepted, before anything is read from it. The
   * address is the socket's peer: behind a proxy, that proxy (size it above the proxy's upstream
   * connections); `0`: no cap (refused in production). The default is above what one gateway
   * process opens to a subgraph at its own caps (128 HTTP connections, and one WebSocket per
   * subscribing identity: at most `SUBSCRIPTION_MAX_CONNECTIONS`, 1,000), and a tenth of the file
   * descriptors the audit's slowloris exhausted (20,000). @default 2_000 // connections
   */
  maxConnectionsPerAddress: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  maxConnectionsPerAddress: 2_000,
};

/**
 * How often Node's HTTP server looks for connections past their header or request deadline: the
 * precision of both timeouts (Node's own default, 30 s, would let a 10 s deadline run to 40 s).
 * @default 1_000 // milliseconds
 */
export const connectionsCheckingIntervalMs = 1_000;

const envNames: Record<keyof ConnectionLimits, string> = {
  headersTimeoutMs: "HTTP_HEADERS_TIMEOUT_MS",
  requestTimeoutMs: "HTTP_REQUEST_TIMEOUT_MS",
  maxConnectionsPerAddress: "HTTP_MAX_CONNECTIONS_PER_ADDRESS",
};

/**
 * The limits of every listener of a deployable, from `HTTP_*` (non-negative integers; unset keep
 * their defaults). Throws, naming the variable and what is allowed, on a value that is not one,
 * on a header deadline longer than the request deadline, and in production (`NODE_ENV=production`)
 * on a limit switched off.
 */
export function connectionLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectionLimits {
  const limits = { ...defaultConnectionLimits };
  for (const [key, name] of Object.entries(envNames) as [keyof ConnectionLimits, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer; got ${JSON.stringify(raw)}.`);
    limits[key] = value;
  }
  checkConnectionLimits(limits, env.NODE_ENV === "production");
  return limits;
}

/** Throws on limits Node would refuse, and on any limit switched off (`0`) in production. */
export function checkConnectionLimits(limits: ConnectionLimits, production: boolean): void {
  // Node refuses a header deadline past the request deadline (the headers are part of the request).
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) may not exceed HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs}).`);
  }
  if (!production) return;
  for (const [key, name] of Object.entries(envNames) as [keyof ConnectionLimits, string][]) {
    if (limits[key] === 0)
      throw new Error(`${name}=0 switches its limit off, which production refuses; set a positive value (default ${defaultConnectionLimits[key]}).`);
  }
}
