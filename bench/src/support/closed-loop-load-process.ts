import { Pool } from "undici";

/**
 * A closed-loop load in a process of its own, the way k6 drives the public federation benchmark:
 * `connections` virtual users, each sending its next request as soon as its last answer is read,
 * for `durationSeconds`. Every latency is kept, so p95 is exact (autocannon reports no p95).
 * An answer counts as failed when its status is not 200, when it mentions `"errors"` (k6's check)
 * or, with `expectedBytes`, when its length differs. Reads its plan as JSON from argv[2]; prints
 * the result as JSON.
 */
export interface ClosedLoopPlan {
  url: string;
  body: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  expectedBytes?: number;
}

export interface ClosedLoopResult {
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  /** The first failed answer, cut to 500 characters, to say what went wrong. */
  firstFailure?: string;
}

const plan = JSON.parse(process.argv[2] ?? "{}") as ClosedLoopPlan;
const target = new URL(plan.url);
const pool = new Pool(target.origin, { connections: plan.connections, pipelining: 1, keepAliveTimeout: 60_000 });
const latencies: number[] = [];
let failures = 0;
let firstFailure: string | undefined;
const started = performance.now();
const deadline = started + plan.durationSeconds * 1000;

async function virtualUser(): Promise<void> {
  while (performance.now() < deadline) {
    const sent = performance.now();
    try {
      const answer = await pool.request({ path: target.pathname, method: "POST", headers: plan.headers, body: plan.body });
      const text = await answer.body.text();
      latencies.push(performance.now() - sent);
      if (answer.statusCode !== 200 || text.includes('"errors"') || (plan.expectedBytes !== undefined && Buffer.byteLength(text) !== plan.expectedBytes)) {
        failures += 1;
        firstFailure ??= `${answer.statusCode} ${text.slice(0, 500)}`;
      }
    } catch (error) {
      failures += 1;
      firstFailure ??= (error as Error).message;
    }
  }
}

await Promise.all(Array.from({ length: plan.connections }, virtualUser));
const elapsedSeconds = (performance.now() - started) / 1000;
await pool.close();
latencies.sort((a, b) => a - b);
const at = (p: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN).toFixed(1));
const result: ClosedLoopResult = {
  requests: latencies.length,
  requestsPerSecond: latencies.length / elapsedSeconds,
  p50: at(50),
  p95: at(95),
  p99: at(99),
  failures,
  ...(firstFailure ? { firstFailure } : {}),
};
process.stdout.write(JSON.stringify(result));
