import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { execute, parse, type DocumentNode, type GraphQLSchema } from "graphql";
import { generateBenchmarkData } from "./benchmark-data.js";
import { benchmarkSubgraphNames, benchmarkSubgraphSchemas, type BenchmarkSubgraphName, type FieldFault } from "./benchmark-subgraphs.js";

export interface BenchmarkSubgraphsOptions {
  /** @default 0 // a free port */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /**
   * Answer a request body seen before with the bytes answered the first time, so that the
   * subgraphs cost next to nothing and the gateway in front dominates the figures (as the public
   * benchmark's Rust subgraphs do). At most 10,000 bodies are kept. @default true
   */
  replay?: boolean;
  /** Faults for tests (see `FieldFault`); no replay then, since a fault may differ per call. */
  fault?: FieldFault;
}

export interface RunningBenchmarkSubgraphs {
  /** `http://host:port/<name>`, the routing URL of one subgraph. */
  url(name: BenchmarkSubgraphName): string;
  /** Requests answered, by subgraph (replayed ones too). */
  calls: Record<BenchmarkSubgraphName, number>;
  close(): Promise<void>;
}

const maxReplayed = 10_000;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The four subgraphs of the federation benchmark on one port, at `/accounts`, `/inventory`,
 * `/products` and `/reviews`, as the public benchmark serves them; `GET /health` answers 200.
 * Plain `node:http` and graphql-js: nothing of the project's gateway or subgraph stack runs here.
 */
export async function startBenchmarkSubgraphs(options: BenchmarkSubgraphsOptions = {}): Promise<RunningBenchmarkSubgraphs> {
  const schemas = benchmarkSubgraphSchemas(generateBenchmarkData(), options.fault);
  const replay = options.replay !== false && !options.fault;
  const replayed = new Map<string, Buffer>();
  const documents = new Map<string, DocumentNode>();
  const calls = Object.fromEntries(benchmarkSubgraphNames.map((name) => [name, 0])) as Record<BenchmarkSubgraphName, number>;

  const answer = async (schema: GraphQLSchema, body: string): Promise<Buffer> => {
    const { query, variables, operationName } = JSON.parse(body) as { query: string; variables?: Record<string, unknown>; operationName?: string };
    let document = documents.get(query);
    if (!document) {
      document = parse(query);
      documents.set(query, document);
    }
    const result = await execute({ schema, document, variableValues: variables ?? null, operationName: operationName ?? null });
    return Buffer.from(JSON.stringify(result));
  };

  const server = createServer((request, response) => {
    const name = (request.url ?? "").slice(1) as BenchmarkSubgraphName;
    if (request.method === "GET" && request.url === "/health") {
      response.end("OK");
      return;
    }
    const schema = schemas[name];
    if (request.method !== "POST" || !schema) {
      response.writeHead(404).end();
      return;
    }
    calls[name] += 1;
    readBody(request)
      .then(async (body) => {
        const key = `${name}\n${body}`;
        let bytes = replay ? replayed.get(key) : undefined;
        if (!bytes) {
          bytes = await answer(schema, body);
          if (replay && replayed.size < maxReplayed) replayed.set(key, bytes);
        }
        response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
        response.end(bytes);
      })
      .catch((error: Error) => {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ errors: [{ message: error.message }] }));
      });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url: (name) => `${base}/${name}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
