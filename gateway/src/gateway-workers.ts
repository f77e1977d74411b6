import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";

/**
 * `GATEWAY_WORKERS`: how many gateway processes share the listening port (node:cluster). One
 * Node.js process uses one core for JavaScript; planning, result shaping and JSON are all
 * JavaScript, so a gateway on a machine of its own scales with its cores. `auto` takes
 * `os.availableParallelism()`. @default 1 // no cluster: the process serves requests itself
 */
export function gatewayWorkersFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.GATEWAY_WORKERS;
  if (raw === undefined || raw === "") return 1;
  if (raw === "auto") return availableParallelism();
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`GATEWAY_WORKERS must be a positive integer or "auto"; got ${JSON.stringify(raw)}.`);
  return value;
}

/**
 * The cluster's primary: forks `count` workers that each run the whole gateway, replaces a worker
 * that dies, and on SIGTERM/SIGINT passes the signal on and waits for every worker to finish its
 * requests. The workers must sign internal tokens with one key, or a subgraph that fetched one
 * worker's JWKS would refuse another's tokens; without `INTERNAL_JWT_PRIVATE_JWK` the primary
 * generates the development key once and hands it to all of them. The development identity
 * provider keeps its state in memory, so it cannot be shared and is refused here.
 */
export async function runGatewayWorkers(count: number, env: NodeJS.ProcessEnv, logger: Logger): Promise<void> {
  if (env.DEV_IDENTITY_PROVIDER === "true") throw new Error("GATEWAY_WORKERS above 1 cannot serve the development identity provider; run it with one worker.");
  const workerEnv: Record<string, string> = {};
  if (!env.INTERNAL_JWT_PRIVATE_JWK && env.NODE_ENV !== "production") {
    workerEnv.INTERNAL_JWT_PRIVATE_JWK = JSON.stringify((await generateInternalSigningKey()).privateJwk);
    logger.warn("no INTERNAL_JWT_PRIVATE_JWK: the workers sign internal tokens with one generated development key");
  }
  let stopping = false;
  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      logger.error({ pid: worker.process.pid, code, signal }, "gateway worker died; starting another");
      // A worker that dies at start-up (bad configuration) would otherwise be restarted in a loop.
      setTimeout(fork, 1_000).unref();
    });
    return worker;
  };
  for (let i = 0; i < count; i += 1) fork();
  logger.info({ workers: count }, "gateway workers started");
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    let running = workers.length;
    if (running === 0) process.exit(0);
    for (const worker of workers) {
      worker.once("exit", () => {
        running -= 1;
        if (running === 0) process.exit(0);
      });
      worker.process.kill(signal);
    }
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
