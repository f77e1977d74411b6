import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A Blockbook `Tx` as the fixtures hold it. */
export interface BlockbookFixture {
  txid: string;
  vin: { addresses?: string[] }[];
  vout: { addresses?: string[] }[];
  blockHeight?: number;
  blockTime?: number;
  [field: string]: unknown;
}

const fixtureFolder = new URL("../chain/fixtures/blockbook/", import.meta.url);

/** Every fixture of `test/chain/fixtures/blockbook/`, by file name without `.json` (see its README). */
export function blockbookFixtures(): Record<string, BlockbookFixture> {
  return Object.fromEntries(
    readdirSync(fixtureFolder)
      .filter((name) => name.endsWith(".json"))
      .map((name) => [name.replace(/\.json$/, ""), JSON.parse(readFileSync(new URL(name, fixtureFolder), "utf8")) as BlockbookFixture]),
  );
}

/** Transaction ids the stand-in answers with Blockbook's (or a proxy's) failure answers. */
export const failingTxIds = {
  unknown400: "1".repeat(64),
  unknown404: "2".repeat(64),
  rateLimited: "3".repeat(64),
  broken: "4".repeat(64),
  notJson: "5".repeat(64),
};

export interface BlockbookStandIn {
  server: Server;
  /** Base URL, with the API key in its path as some providers want it. */
  url: string;
  /** Requests answered so far. */
  requests(): number;
  /** Paths asked so far (without the key), in order. */
  paths(): string[];
  /** From now on, answer every request with this status (429 with `Retry-After`, 500, ...); null: answer normally. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

/**
 * A stand-in for a Blockbook server (an external system no test here can run): `GET
 * /api/v2/tx/<txid>` answers the fixture of that txid; `GET /api/v2/address/<address>?details=txs`
 * answers an `Address` page of the fixtures that spend from or pay to the address, newest first
 * (mempool first), paged by `page` and `pageSize` as Blockbook pages; the failure answers are
 * Blockbook's: 400 with a JSON `error` for an unknown transaction, 429 with `Retry-After`, 500.
 */
export function startBlockbookStandIn(secret: string, transactions: BlockbookFixture[]): Promise<BlockbookStandIn> {
  let requests = 0;
  let failure: number | null = null;
  const paths: string[] = [];
  const byTxId = new Map(transactions.map((tx) => [tx.txid, tx]));
  const height = (tx: BlockbookFixture) => (tx.blockHeight === undefined || tx.blockHeight < 1 ? Number.MAX_SAFE_INTEGER : tx.blockHeight);
  const server = createServer((request, response) => {
    requests++;
    const url = new URL(request.url ?? "/", "http://stand-in");
    const send = (status: number, body: string, headers: Record<string, string> = {}) =>
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
    if (!url.pathname.startsWith(`/${secret}/`)) return send(404, `{"error":"Not found"}`);
    const path = url.pathname.slice(secret.length + 1);
    paths.push(`${path}${url.search}`);
    if (failure === 429) return send(429, `{"error":"Too many requests"}`, { "retry-after": "60" });
    if (failure !== null) return send(failure, `{"error":"internal error"}`);
    const txid = /^\/api\/v2\/tx\/([0-9a-f]{64})$/.exec(path)?.[1];
    if (txid !== undefined) {
      const tx = byTxId.get(txid);
      if (tx) return send(200, JSON.stringify(tx));
      if (txid === failingTxIds.rateLimited) return send(429, `{"error":"Too many requests"}`, { "retry-after": "7" });
      if (txid === failingTxIds.broken) return send(500, `{"error":"internal error"}`);
      if (txid === failingTxIds.notJson) return send(200, "<html>maintenance</html>");
      if (txid === failingTxIds.unknown404) return send(404, `{"error":"Not found"}`);
      return send(400, JSON.stringify({ error: `Transaction '${txid}' not found` }));
    }
    const address = /^\/api\/v2\/address\/([A-Za-z0-9]+)$/.exec(path)?.[1];
    if (address !== undefined && url.searchParams.get("details") === "txs") {
      const touching = transactions
        .filter((tx) => [...tx.vin, ...tx.vout].some((part) => part.addresses?.includes(address)))
        .sort((a, b) => height(b) - height(a));
      const pageSize = Math.min(1_000, Number(url.searchParams.get("pageSize") ?? 1_000));
      const totalPages = Math.max(1, Math.ceil(touching.length / pageSize));
      // Out of range, Blockbook answers the closest page.
      const page = Math.min(totalPages, Math.max(1, Number(url.searchParams.get("page") ?? 1)));
      const onPage = touching.slice((page - 1) * pageSize, page * pageSize);
      return send(
        200,
        JSON.stringify({ page, totalPages, itemsOnPage: pageSize, address, txs: touching.length, ...(onPage.length > 0 ? { transactions: onPage } : {}) }),
      );
    }
    return send(400, `{"error":"Invalid request"}`);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${secret}`,
        requests: () => requests,
        paths: () => [...paths],
        failWith: (status) => {
          failure = status;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
