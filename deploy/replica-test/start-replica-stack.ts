import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { freePort, pollUntil } from "@compliance-graph/test-kit";
import { podman } from "./container-replica.js";
import { startLoadBalancer, type LoadBalancer, type Pool } from "./load-balancer.js";
import type { Replica, ReplicaFactory } from "./replica.js";

export interface ReplicaStackOptions {
  runtime: "podman" | "processes";
  makeReplica: ReplicaFactory;
  /** PostgreSQL's maintenance database; the stack creates a database of its own beside it and drops it at `close`. */
  adminDatabaseUrl: string;
  /** The prefix of that database's name. */
  databasePrefix: string;
  /** Ports from here on, one after another; unset: free ports. */
  basePort?: number;
  /** With podman: the image tag the migrations run from. */
  imageTag: string;
}

export interface ReplicaStack {
  /** The balancer's gateway frontend, `http://127.0.0.1:<port>`: the stack's public door. */
  gatewayUrl: string;
  /** The development identity provider's issuer. */
  issuer: string;
  aopds: Replica[];
  gateways: Replica[];
  balancer: LoadBalancer;
  /** The stack's own database (read directly by the replica test). */
  databaseUrl: string;
  /** Stops everything and drops the database. */
  close(): Promise<void>;
}

/**
 * The replica stack: on one new PostgreSQL database (migrated once, as the Kubernetes Job does), the development
 * identity provider, trpd, two aopd and two gateways (processes or containers), HAProxy in front of the aopd pair (the
 * gateways' SUBGRAPH_AOPD_URL) and of the gateway pair (the public door). Resolves once the balancer routes to every
 * replica. What `npm run stack:replicas` serves and the replica test loads.
 */
export async function startReplicaStack(options: ReplicaStackOptions): Promise<ReplicaStack> {
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
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const [idpPort, trpdPort, aopdPorts, gatewayPorts, aopdFront, gatewayFront, statsPort] = [
      await port(),
      await port(),
      [await port(), await port()],
      [await port(), await port()],
      await port(),
      await port(),
      await port(),
    ];

    const idp = spawn(process.execPath, ["--import", "tsx", "dev-identity-provider/src/main.ts"], {
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
    await pollUntil(
      "the identity provider answering",
      () =>
        fetch(`${issuer}/.well-known/openid-configuration`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok,
      { timeoutMs: 120_000 },
    );

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
    const gateways = gatewayPorts.map((gatewayPort, index) =>
      make("gateway", `gateway-${index + 1}`, gatewayPort, { ...gatewayEnv, PORT: String(gatewayPort) }),
    );

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

    return { gatewayUrl: `http://127.0.0.1:${gatewayFront}`, issuer, aopds, gateways, balancer, databaseUrl: databaseUrl.toString(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function ready(replica: Replica): Promise<void> {
  await pollUntil(
    `${replica.name} ready`,
    () =>
      fetch(`${replica.base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok,
    { timeoutMs: 180_000, intervalMs: 250 },
  );
}

/** Applies the migrations once, before any aopd starts, as the Kubernetes Job does before aopd's rollout. */
async function runMigrations(options: ReplicaStackOptions, env: Record<string, string>): Promise<void> {
  if (options.runtime === "podman") {
    const environment = Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
    await podman(
      [
        "run",
        "--rm",
        "--network",
        "host",
        "--read-only",
        ...environment,
        `localhost/compliance-graph/aopd:${options.imageTag}`,
        "subgraphs/aopd/src/cli/migrate.ts",
      ],
      300_000,
    );
    return;
  }
  const child = spawn(process.execPath, ["--import", "tsx", "subgraphs/aopd/src/cli/migrate.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`the migrations exited with ${code}`);
}
