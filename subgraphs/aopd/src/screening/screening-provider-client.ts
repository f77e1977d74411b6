import { ScreeningProviderError } from "./screening-provider-error.js";

/** One identification the provider returned for an address. */
export interface ProviderIdentification {
  category: string;
  name: string;
  description: string | null;
  url: string | null;
}

/** Identifications kept per answer: a sanctioned address has one or two; more is not a sanctions answer. @default 20 */
const maxIdentifications = 20;
/** Characters kept of each text of an identification. @default 1_000 */
const maxText = 1_000;
/** Bytes of an answer read. @default 1 MiB */
const maxBodyBytes = 1024 * 1024;

/**
 * A commercial screening API in the shape of Chainalysis's free sanctions API:
 * `GET <url>/api/v1/address/<address>` with the key in the `X-API-Key` header, answering
 * `{ "identifications": [{ "category", "name", "description", "url" }] }` (empty: not listed).
 *
 * Threat: the API key is a credential that bills the operator and identifies them to the provider.
 * A key in a log line, a metric label, an error message or the `configuration` query is leaked to
 * everyone who reads those. The key lives in a private field and is only ever written into the
 * request header; the object prints, logs and serializes as the provider's name only; every
 * failure becomes a `ScreeningProviderError` that names the provider and a code (fetch's own
 * errors, which may quote the request, are dropped rather than wrapped); and the URL is refused at
 * configuration when it carries credentials or a query (screening-config.ts).
 */
export class ScreeningProviderClient {
  readonly #url: string;
  readonly #key: string;

  constructor(
    /** How results from it are recorded and shown (`AOPD_SCREENING_PROVIDER_NAME`). */
    readonly name: string,
    url: string,
    key: string,
    /** How long one request may take. @default 10_000 // milliseconds */
    readonly timeoutMs = 10_000,
  ) {
    this.#url = url.replace(/\/+$/, "");
    this.#key = key;
  }

  /** The provider's identifications of one address; empty when it names none. */
  async screen(address: string): Promise<ProviderIdentification[]> {
    let response: Response;
    try {
      response = await fetch(`${this.#url}/api/v1/address/${encodeURIComponent(address)}`, {
        headers: { accept: "application/json", "X-API-Key": this.#key },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "error",
      });
    } catch {
      throw new ScreeningProviderError("unreachable", this.name);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      throw new ScreeningProviderError("rate_limited", this.name, retryAfterMs(response.headers.get("retry-after")));
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new ScreeningProviderError("unauthorized", this.name);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new ScreeningProviderError("server_error", this.name, retryAfterMs(response.headers.get("retry-after")));
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new ScreeningProviderError("bad_response", this.name);
    }
    let body: unknown;
    try {
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > maxBodyBytes) throw new Error("too large");
      body = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw new ScreeningProviderError("bad_response", this.name);
    }
    const identifications = (body as { identifications?: unknown } | null)?.identifications;
    if (!Array.isArray(identifications)) throw new ScreeningProviderError("bad_response", this.name);
    return identifications.slice(0, maxIdentifications).map((item: unknown) => {
      const entry = (item ?? {}) as Record<string, unknown>;
      return { category: text(entry.category) ?? "unknown", name: text(entry.name) ?? "unnamed", description: text(entry.description), url: text(entry.url) };
    });
  }

  toString(): string {
    return `[${this.name} screening provider]`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, maxText) : null;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
