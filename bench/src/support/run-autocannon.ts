import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const autocannonCli = require.resolve("autocannon/autocannon.js");

export interface LoadOptions {
  url: string;
  /** @default "POST" */
  method?: "GET" | "POST";
  /** The request body; none for a GET. */
  body?: string;
  headers: Record<string, string>;
  /** Concurrent keep-alive connections. @default 16 */
  connections?: number;
  /** Length of the measured run. @default 10 // seconds */
  durationSeconds?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Responses other than 2xx, socket errors and timeouts: a run with any is not a valid figure. */
  failures: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Sends `body` to `url` (POST, or GET without a body) for a fixed time with autocannon's CLI in a process of its own, so that
 * the load generator's CPU time is never counted as the server's, nor the server's work slowed by
 * the generator sharing its event loop.
 */
export async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const args = [
    autocannonCli,
    "--json",
    "--no-progress",
    "-m",
    options.method ?? "POST",
    "-c",
    String(options.connections ?? 16),
    "-d",
    String(options.durationSeconds ?? 10),
  ];
  if (options.body !== undefined) args.push("-b", options.body);
  for (const [name, value] of Object.entries(options.headers)) args.push("-H", `${name}=${value}`);
  args.push(options.url);
  return runLoadProcess(args);
}

/**
 * Sends a varied workload: the requests of a plan file (see `varied-load-process.ts`) in one
 * rotation shared by all connections, in a process of its own like `runAutocannon`.
 */
export async function runVariedAutocannon(planFile: string): Promise<LoadResult> {
  return runLoadProcess(["--import", "tsx", variedLoadProcess, planFile]);
}

const variedLoadProcess = fileURLToPath(new URL("./varied-load-process.ts", import.meta.url));

async function runLoadProcess(args: string[]): Promise<LoadResult> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${stderr}`);
  const result = JSON.parse(stdout) as AutocannonJson;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
