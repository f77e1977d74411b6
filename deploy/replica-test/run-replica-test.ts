import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { freePort, pollUntil } from "@compliance-graph/test-kit";
import { podman } from "./container-replica.js";
import { startLoadBalancer, type Pool } from "./load-balancer.js";
import type { Replica, ReplicaFactory } from "./replica.js";
import { SteadyLoad } from "./steady-load.js";
import { RunFigures } from "./step-figures.js";

export interface ReplicaTestOptions {
  runtime: "podman" | "processes";
  makeReplica: ReplicaFactory;
  /** PostgreSQL's maintenance database; the test creates and drops a database of its own beside it. */
  adminDatabaseUrl: string;
  /** The prefix of that database's name. */
  databasePrefix: string;
  /** Ports from here on, one after another; unset: free ports. */
  basePort?: number;
  /** How long each calm step lasts, in seconds. */
  stepSeconds: number;
  /** With podman: the image tag the migrations run from. */
  imageTag: string;
}

export interface ReplicaTestResult {
  runtime: string;
  steps: { step: string; seconds: number; answered: number; errors: Record<string, number>; secondsToFullThroughput?: number | null }[];
  baselinePerSecond: number;
  acceptedWrites: number;
  writesLost: number;
  eventsInLog: number;
  subscribers: { missed: number; duplicates: number }[];
}

/**
 * Two gateways and two aopd replicas behind HAProxy on one PostgreSQL database (with trpd and the development
 * identity provider), under a steady read, write and subscription load: first calm, then one aopd and one gateway
 * killed (SIGKILL) and started again, then every replica restarted in turn with SIGTERM, then calm again. Counts,
 * per step, the answers and the errors by code and the time until full throughput; at the end, the accepted writes
 * missing from the database and the proof events each subscriber missed after resuming.
 */
export async function runReplicaTest(options: ReplicaTestOptions): Promise<ReplicaTestResult> {
  let nextPort = options.basePort;
  const port = async () => (nextPort === undefined ? freePort() : nextPort++);
  const folder = await mkdtemp(join(tmpdir(), "replica-test-"));
  const database = `${options.databasePrefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: options.adminDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(options.adminDatabaseUrl);
  databaseUrl.pathname = `/${database}`;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const [idpPort, trpdPort, aopdPorts, gatewayPorts, aopdFront, gatewayFront, statsPort] = [await port(), await port(), [await port(), await port()], [await port(), await port()], await port(), await port(), await port()];

    const idp = spawn(process.execPath, ["--import", "tsx", "gateway/src/dev-identity-provider/main.ts"], {
      env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "warn", DEV_IDP_PORT: String(idpPort), DEV_IDP_SIGNING_KEY_FILE: join(folder, "dev-idp-key.json") },
      stdio: ["ignore", "ignore", "ignore"],
    });
    cleanups.push(async () => {
      if (idp.exitCode === null) {
        const exited = once(idp, "exit");
        idp.kill("SIGTERM");
        await exited;
      }
    });
    const issuer = `http://127.0.0.1:${idpPort}/auth/realms/dev`;
    await pollUntil("the identity provider answering", () => fetch(`${issuer}/.well-known/openid-configuration`).then((r) => r.ok, () => false), (ok) => ok, { timeoutMs: 120_000 });

    const key = await generateInternalSigningKey();
    // The images default to production, which refuses the development identity provider's http issuer: the test is a trial.
    const common = { NODE_ENV: "", LOG_LEVEL: "warn", APOLLO_TELEMETRY_DISABLED: "1", SHUTDOWN_DRAIN_SECONDS: "5" };
    const subgraphEnv = { ...common, INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }) };
    const aopdEnv = { ...subgraphEnv, DATABASE_URL: databaseUrl.toString(), AOPD_HOST: "127.0.0.1", AOPD_TRUSTED_PROXY_HOPS: "1" };

    await runMigrations(options, aopdEnv);

    const replicas: Replica[] = [];
    const make = (deployable: "gateway" | "aopd" | "trpd", name: string, replicaPort: number, env: Record<string, string>) => {
      const replica = options.makeReplica(deployable, name, replicaPort, env);
      replicas.push(replica);
      return replica;
    };
    cleanups.push(() => Promise.all(replicas.map((replica) => replica.dispose())));
    const trpd = make("trpd", "trpd-1", trpdPort, { ...subgraphEnv, TRPD_HOST: "127.0.0.1", TRPD_PORT: String(trpdPort) });
    const aopds = aopdPorts.map((aopdPort, index) => make("aopd", `aopd-${index + 1}`, aopdPort, { ...aopdEnv, AOPD_PORT: String(aopdPort) }));
    const gatewayEnv = {
      ...common,
      HOST: "127.0.0.1",
      OIDC_ISSUER: issuer,
      INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(key.privateJwk),
      SUBGRAPH_AOPD_URL: `http://127.0.0.1:${aopdFront}/graphql`,
      SUBGRAPH_TRPD_URL: `http://127.0.0.1:${trpdPort}/graphql`,
      GATEWAY_TRUSTED_PROXY_HOPS: "1",
    };
    const gateways = gatewayPorts.map((gatewayPort, index) => make("gateway", `gateway-${index + 1}`, gatewayPort, { ...gatewayEnv, PORT: String(gatewayPort) }));

    const pools: Record<string, Pool> = {
      aopd: { port: aopdFront, servers: aopds.map((replica, index) => ({ name: replica.name, port: aopdPorts[index]! })) },
      gateway: { port: gatewayFront, servers: gateways.map((replica, index) => ({ name: replica.name, port: gatewayPorts[index]! })) },
    };
    const balancer = await startLoadBalancer(folder, pools, statsPort);
    cleanups.push(() => balancer.stop());

    for (const replica of [trpd, ...aopds]) await replica.start();
    await Promise.all([trpd, ...aopds].map(ready));
    for (const replica of gateways) await replica.start();
    await Promise.all(gateways.map(ready));
    for (const replica of [...aopds, ...gateways]) await balancer.waitUntilUp(replica.name);

    const tokenEndpoint = `${issuer}/protocol/openid-connect/token`;
    let token = await fetchToken(tokenEndpoint);
    // Tokens live 300 s; a fresh one every minute keeps every request's token valid.
    const refresher = setInterval(() => void fetchToken(tokenEndpoint).then((fresh) => (token = fresh), () => undefined), 60_000);
    cleanups.push(async () => clearInterval(refresher));

    const figures = new RunFigures();
    const load = new SteadyLoad({ gateway: `http://127.0.0.1:${gatewayFront}`, token: () => token, figures });
    cleanups.push(() => load.close());
    figures.beginStep("calm");
    await load.start(null);
    await pause(options.stepSeconds);

    const restart = async (replica: Replica, signal: "SIGKILL" | "SIGTERM") => {
      await replica.stop(signal);
      await replica.start();
      await ready(replica);
      await balancer.waitUntilUp(replica.name);
    };
    figures.beginStep("aopd-1 killed (SIGKILL) and restarted");
    await restart(aopds[0]!, "SIGKILL");
    await pause(options.stepSeconds);
    figures.beginStep("gateway-1 killed (SIGKILL) and restarted");
    await restart(gateways[0]!, "SIGKILL");
    await pause(options.stepSeconds);
    figures.beginStep("rolling restart (SIGTERM): aopd-1, aopd-2, gateway-1, gateway-2");
    for (const replica of [...aopds, ...gateways]) await restart(replica, "SIGTERM");
    await pause(options.stepSeconds);
    figures.beginStep("calm again");
    await pause(options.stepSeconds);
    await load.stopRequests();
    figures.end();

    // Every event of the log, read through the API after the load: what each subscriber should have received.
    const logged = await readEventLog(load);
    await pollUntil(
      "every subscriber receiving the log's last event",
      async () => load.subscribers.map((subscriber) => new Set(subscriber.received.map((event) => event.cursor))),
      (seen) => seen.every((cursors) => logged.every((cursor) => cursors.has(cursor))),
      { timeoutMs: 60_000, intervalMs: 500 },
    ).catch(() => undefined);
    const subscribers = load.subscribers.map((subscriber) => {
      const cursors = new Set(subscriber.received.map((event) => event.cursor));
      return { missed: logged.filter((cursor) => !cursors.has(cursor)).length, duplicates: subscriber.received.length - cursors.size };
    });

    const accepted = [...load.accepted];
    const stored = await countStored(databaseUrl.toString(), accepted);

    const calm = figures.steps[0]!;
    const baseline = figures.medianRate(calm.startedAt, calm.endedAt!);
    return {
      runtime: options.runtime,
      baselinePerSecond: baseline,
      steps: figures.steps.map((step) => ({
        step: step.step,
        seconds: Math.round((step.endedAt! - step.startedAt) / 100) / 10,
        answered: step.answered,
        errors: step.errors,
        ...(step === calm ? {} : { secondsToFullThroughput: figures.secondsUntilRate(step.startedAt, step.endedAt!, baseline) ?? null }),
      })),
      acceptedWrites: accepted.length,
      writesLost: accepted.length - stored,
      eventsInLog: logged.length,
      subscribers,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await rm(folder, { recursive: true, force: true });
  }
}

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

async function ready(replica: Replica): Promise<void> {
  await pollUntil(`${replica.name} ready`, () => fetch(`${replica.base}/health/ready`).then((r) => r.ok, () => false), (ok) => ok, { timeoutMs: 180_000, intervalMs: 250 });
}

async function fetchToken(tokenEndpoint: string): Promise<string> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    body: new URLSearchParams({ client_id: "dev-api-client", client_secret: "dev-secret", grant_type: "client_credentials", scope: "openid" }),
  });
  if (!response.ok) throw new Error(`the token endpoint answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Applies the migrations once, before any aopd starts, as the Kubernetes Job does before aopd's rollout. */
async function runMigrations(options: ReplicaTestOptions, env: Record<string, string>): Promise<void> {
  if (options.runtime === "podman") {
    const environment = Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
    await podman(["run", "--rm", "--network", "host", "--read-only", ...environment, `localhost/compliance-graph/aopd:${options.imageTag}`, "subgraphs/aopd/src/cli/migrate.ts"], 300_000);
    return;
  }
  const child = spawn(process.execPath, ["--import", "tsx", "subgraphs/aopd/src/cli/migrate.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`the migrations exited with ${code}`);
}

/** Every event cursor of the proof event log, oldest first, read through the gateway. */
async function readEventLog(load: SteadyLoad): Promise<string[]> {
  const cursors: string[] = [];
  let after: string | null = null;
  for (;;) {
    const { body } = await load.post("query Log($after: String) { aopd { proofEvents(after: $after, limit: 1000) { events { cursor } endCursor hasMore } } }", { after });
    const page = (body?.data as { aopd: { proofEvents: { events: { cursor: string }[]; endCursor: string | null; hasMore: boolean } } } | undefined)?.aopd.proofEvents;
    if (!page) throw new Error(`reading the event log failed: ${JSON.stringify(body?.errors)}`);
    cursors.push(...page.events.map((event) => event.cursor));
    if (!page.hasMore || !page.endCursor) return cursors;
    after = page.endCursor;
  }
}

/** How many of the accepted proofs the database holds, read directly (not through the replicas under test). */
async function countStored(databaseUrl: string, ids: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM aopd_proof WHERE id::text = ANY($1::text[])", [ids]);
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}
