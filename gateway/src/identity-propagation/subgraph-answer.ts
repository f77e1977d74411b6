/**
 * A subgraph's answer as `RemoteGraphQLDataSource` reads it (`ok`, `status`, `statusText`, `url`,
 * `headers.get`, `json()`, `text()`), kept as plain values: the status, the headers and the body
 * text. A WHATWG `Response` per subgraph call (a body stream, a headers list, a second copy of the
 * body for `json()`) was a measurable part of the gateway's garbage on large answers. Immutable, so
 * callers sharing one call (deduplicate-inflight-queries.ts) share one answer: `json()` parses anew
 * for each, and each gets objects of its own to merge into.
 *
 * `url` and `statusText` are empty, as they were on the `Response` built from undici's answer
 * before: errors built from them read the same.
 */
export class SubgraphAnswer {
  readonly ok: boolean;
  readonly url = "";
  readonly statusText = "";
  readonly headers: { get(name: string): string | null; [Symbol.iterator](): IterableIterator<[string, string]> };

  constructor(
    readonly status: number,
    headers: Map<string, string>,
    readonly body: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = { get: (name) => headers.get(name.toLowerCase()) ?? null, [Symbol.iterator]: () => headers.entries() };
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.body);
  }

  async text(): Promise<string> {
    return this.body;
  }
}
