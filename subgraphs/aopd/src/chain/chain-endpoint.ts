import { ChainConnectionError } from "./chain-connection-error.js";

/**
 * The URL of a chain connection, holding it away from anything that prints.
 *
 * Threat: providers put API keys in the URL (`https://mainnet.example/v3/<key>`,
 * `https://user:key@host`, `?apikey=`). A key in a log line, an error message or the
 * `configuration` query is a leaked credential. The URL lives in a private field; the object
 * prints, logs and serializes as its network name only, and every failure becomes a
 * `ChainConnectionError` that names the network (fetch's own errors, which may quote the URL, are
 * dropped rather than wrapped).
 */
export class ChainEndpoint {
  readonly #url: string;

  constructor(
    readonly network: string,
    url: string,
    /** How long one request may take. @default 10_000 // milliseconds */
    readonly timeoutMs = 10_000,
  ) {
    this.#url = url.replace(/\/+$/, "");
  }

  /** GET `<url><path>`: the status and parsed JSON body. 429 and 5xx throw; other statuses are the caller's to judge. */
  async getJson(path: string): Promise<{ status: number; body: unknown }> {
    return this.#send(`${this.#url}${path}`, { method: "GET", headers: { accept: "application/json" } });
  }

  /** POST a JSON body to the URL itself (JSON-RPC). */
  async postJson(body: unknown): Promise<{ status: number; body: unknown }> {
    return this.#send(this.#url, { method: "POST", headers: { accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(body) });
  }

  async #send(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch {
      throw new ChainConnectionError("unreachable", this.network);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      throw new ChainConnectionError("rate_limited", this.network, retryAfterMs(response.headers.get("retry-after")));
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ChainConnectionError("server_error", this.network, retryAfterMs(response.headers.get("retry-after")));
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new ChainConnectionError("unreachable", this.network);
    }
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new ChainConnectionError("bad_response", this.network);
    }
  }

  toString(): string {
    return `[${this.network} chain connection]`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
