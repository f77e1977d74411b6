import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { parseAllDocuments, stringify } from "yaml";
import { generateCheckpointKey } from "@compliance-graph/aopd/internals";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { fetchToken, pollUntil } from "@compliance-graph/test-kit";
import { createKubePlaySecret } from "./create-kube-play-secret.js";

/**
 * `podman kube play` of the Kubernetes manifests' Deployments (one replica each) with the ConfigMaps of
 * deploy/kubernetes/config.yaml and the Secrets of deploy/kubernetes/secrets.yaml, the images built by
 * build-images.sh, the manifests' security context (user 1000, read-only root, no capabilities), the /tmp emptyDir
 * and the environment they define. Each pod must answer its readiness probe from inside.
 *
 * trpd and the console run as the manifests say, on podman's pod network. aopd, the registry and the gateway need more: podman 4.3
 * reads a pod's Secrets only from its own secret store, so the check creates one podman secret per Secret object
 * (named as the manifest names it, holding test values) before playing and removes them after. Their pods run on the
 * host's network, because aopd's readiness needs PostgreSQL (the host's, on a database the check creates, migrates and
 * drops, as the registry's store), the gateway's its identity provider's keys (the development identity provider, run as
 * a process), its registry and, once one is published, every subgraph of the supergraph (a trpd pod beside them); their ports move to
 * KUBE_PLAY_BASE_PORT's, since the host's are shared. The gateway lists no subgraph: aopd and trpd are published as
 * their publish Jobs publish them (kube play runs no Job, so their containers run with `podman run`, the Job's
 * environment and Secrets), both through the gateway's door with the identity provider's token: the gateway starts
 * while the registry serves nothing (ready but degraded, /graphql answered 503), aopd's Job publishes the first
 * version through it, trpd's the next, and the gateway serves both. Every pod runs in production (the ConfigMap's NODE_ENV), as a cluster runs it, and the check reads
 * NODE_ENV=production inside each container: the test values pass production's checks (the identity provider's http
 * issuer is on loopback, which production allows).
 *
 * Usage: node --import tsx deploy/podman/kube-play-check.ts
 * IMAGE_TAG (default `test`), DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * KUBE_PLAY_DB_PREFIX (default `kube_play`), KUBE_PLAY_BASE_PORT (default 6030: the host-network pods and the identity provider use it to +20; not 6000, which
 * fetch refuses as X11's port, so the probe could never reach a gateway there).
 */
const run = promisify(execFile);
const podman = async (args: string[], timeoutMs = 300_000) => (await run("podman", args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
const tag = process.env.IMAGE_TAG ?? "test";
const basePort = Number(process.env.KUBE_PLAY_BASE_PORT ?? 6030);
const folder = await mkdtemp(join(tmpdir(), "kube-play-"));
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  image: string;
  env?: { name: string; value: string }[];
  ports?: unknown[];
  command?: string[];
  args?: string[];
  envFrom?: { secretRef?: { name: string } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: { replicas: number; template: { spec: { hostNetwork?: boolean; initContainers?: Container[]; containers: Container[] } } };
}
const read = async (file: string) => parseAllDocuments(await readFile(join("deploy/kubernetes", file), "utf8")).map((document) => document.toJS() as Manifest);
const cleanups: (() => Promise<unknown>)[] = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
  cleanups.length = 0;
  await rm(folder, { recursive: true, force: true });
};
// Interrupted (Ctrl-C, CI's timeout), the check still removes its pods, its podman secrets and its database.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().then(() => process.exit(1)));

/** Plays `name`'s Deployment with `changes` applied, waits until it is ready on `port` inside its pod, checks its security context. */
async function playDeployment(
  name: string,
  port: number,
  configMapFiles: string[],
  change: (deployment: Manifest) => void = () => undefined,
  secretValues: Record<string, string> = {},
): Promise<void> {
  const deployment = (await read(`${name}.yaml`)).find((resource) => resource.kind === "Deployment")!;
  deployment.spec.replicas = 1;
  deployment.spec.template.spec.containers[0]!.image = `localhost/compliance-graph/${name}:${tag}`;
  change(deployment);
  const file = join(folder, `${name}-deployment.yaml`);
  await writeFile(file, stringify(deployment));
  cleanups.push(() => podman(["kube", "down", file]));
  await podman(["kube", "play", "--replace", ...configMapFiles, file]);
  // podman names a Deployment's containers <deployment>-pod-<replica>-<container>.
  const container = `${name}-pod-0-${name}`;
  // The probe prints what it got when not ready, so that a timeout says why.
  const probe = `fetch('http://127.0.0.1:${port}/health/ready').then(async r=>{if(r.ok)process.exit(0);console.log(r.status,await r.text());process.exit(1)},e=>{console.log(String(e));process.exit(1)})`;
  const probeOnce = () =>
    run("podman", ["exec", container, "node", "-e", probe], { timeout: 60_000 }).then(
      () => "ready",
      (error: { stdout?: string; message: string }) => error.stdout?.trim() || error.message,
    );
  await pollUntil(`${name} ready inside its pod`, probeOnce, (answer) => answer === "ready", { timeoutMs: 180_000, intervalMs: 1_000 }).catch(
    async (error: unknown) => {
      const logs = await podman(["logs", "--tail", "20", container]).catch((reason: unknown) => `(no logs: ${(reason as Error).message})`);
      throw new Error(`${(error as Error).message}\n${name}'s last log lines:\n${logs}`);
    },
  );
  const [user, readOnly] = (await podman(["inspect", "--format", "{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}", container])).split(" ");
  if (readOnly !== "true" || !user?.startsWith("1000"))
    throw new Error(`${name}: expected user 1000 and a read-only root, got user ${user} and read-only ${readOnly}`);
  // The Secrets reached the container: each key its secretRefs name holds the value the check put in podman's store.
  const seen = JSON.parse(await podman(["exec", container, "node", "-p", "JSON.stringify(process.env)"])) as Record<string, string>;
  for (const [key, value] of Object.entries(secretValues))
    if (seen[key] !== value) throw new Error(`${name}: ${key} from its Secret did not reach the container`);
  if (seen.NODE_ENV !== "production") throw new Error(`${name}: NODE_ENV is ${JSON.stringify(seen.NODE_ENV)} in its container, not production`);
  console.log(
    `kube play: ${name} ready in production (user ${user}, read-only root file system${Object.keys(secretValues).length > 0 ? `, Secrets ${Object.keys(secretValues).join(", ")}` : ""})`,
  );
}

/**
 * On the host's network at `port`, with `env` over the manifest's own (a container's env wins over its envFrom). podman
 * refuses port mappings on the host's network, so the ports go and the probes name the port by number.
 */
const onHostNetwork = (port: number, env: Record<string, string>) => (deployment: Manifest) => {
  const { spec } = deployment.spec.template;
  spec.hostNetwork = true;
  const container = spec.containers[0]!;
  delete container.ports;
  for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) if (probe?.httpGet) probe.httpGet.port = port;
  container.env = [...(container.env ?? []).filter((entry) => !(entry.name in env)), ...Object.entries(env).map(([name, value]) => ({ name, value }))];
};

const pick = (values: Record<string, string>, ...names: string[]) => Object.fromEntries(names.map((name) => [name, values[name]!]));

try {
  // The ConfigMaps as a site fills them in: a real public internal-token key instead of the placeholder.
  const key = await generateInternalSigningKey("kube-play-check");
  const registryKey = await generateInternalSigningKey("kube-play-registry");
  const filled: Record<string, Record<string, string>> = {
    "internal-jwks": { INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }) },
    "registry-public-keys": { GATEWAY_SUPERGRAPH_KEYS: JSON.stringify({ keys: [registryKey.publicJwk] }) },
    "registry-internal-jwks": { INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }) },
  };
  const configMaps = (await read("config.yaml")).map((map) => (filled[map.metadata.name] ? { ...map, data: filled[map.metadata.name] } : map));
  const configMapFiles: string[] = [];
  for (const map of configMaps) {
    const file = join(folder, `${map.metadata.name}.yaml`);
    await writeFile(file, stringify(map));
    configMapFiles.push("--configmap", file);
  }

  for (const [name, port] of [
    ["trpd", 4002],
    ["console", 8081],
  ] as const) {
    await playDeployment(name, port, configMapFiles);
    await cleanups.pop()!();
  }

  // aopd's own database, migrated before aopd starts, as the migration Job does before a rollout.
  const adminUrl = process.env.DATABASE_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = `${process.env.KUBE_PLAY_DB_PREFIX ?? "kube_play"}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  cleanups.unshift(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  await podman([
    "run",
    "--rm",
    "--network",
    "host",
    "--read-only",
    "--env",
    `DATABASE_URL=${databaseUrl}`,
    `localhost/compliance-graph/aopd:${tag}`,
    "subgraphs/aopd/src/cli/migrate.ts",
  ]);

  // Every Secret of the manifests, filled with test values, as a podman secret of the same name.
  const testValues: Record<string, string> = {
    INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(key.privateJwk),
    DATABASE_URL: databaseUrl.toString(),
    AOPD_RECEIPT_SIGNING_KEY: generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    AOPD_AUDIT_KEY: `kube-play:${randomBytes(32).toString("base64")}`,
    AOPD_CHECKPOINT_KEY: generateCheckpointKey("kube-play.compliance-graph.invalid/aopd-audit"),
    AOPD_CHAIN_BITCOIN_URL: "http://127.0.0.1:9/kube-play-check",
    AOPD_CHAIN_ETHEREUM_URL: "http://127.0.0.1:9/kube-play-check",
    // The registry's tables (registry_*) beside aopd's, in the check's one database.
    REGISTRY_DATABASE_URL: databaseUrl.toString(),
    REGISTRY_SIGNING_KEY: JSON.stringify(registryKey.privateJwk),
    // The development realm's publishers' client, granted schema:publish alone: the one secrets.yaml names.
    GRAPH_CLIENT_ID: "compliance-graph-publisher",
    GRAPH_CLIENT_SECRET: "publisher-dev-secret",
  };
  for (const secret of (await read("secrets.yaml")).filter((resource) => resource.kind === "Secret")) {
    const values = Object.fromEntries(
      Object.keys({ ...secret.data, ...secret.stringData }).map((name) => {
        const value = testValues[name];
        if (value === undefined) throw new Error(`secrets.yaml: ${secret.metadata.name} has key ${name}, which this check has no test value for; add one.`);
        return [name, value];
      }),
    );
    await createKubePlaySecret(secret.metadata.name, values);
    cleanups.unshift(() => podman(["secret", "rm", secret.metadata.name]));
  }

  // podman 4.3 lets a ConfigMap's key win over the container's own env of the same name (Kubernetes does the reverse),
  // so the host-network pods get ConfigMaps without the keys they set themselves.
  const common = { APOLLO_TELEMETRY_DISABLED: "1" };
  const setByPods = new Set([...Object.keys(common), "METRICS_PORT", "OIDC_ISSUER", "GATEWAY_REGISTRY_URL"]);
  const hostConfigMapFiles: string[] = [];
  for (const map of configMaps) {
    const file = join(folder, `${map.metadata.name}.host.yaml`);
    await writeFile(file, stringify({ ...map, data: Object.fromEntries(Object.entries(map.data ?? {}).filter(([name]) => !setByPods.has(name))) }));
    hostConfigMapFiles.push("--configmap", file);
  }
  const [gatewayPort, aopdPort, trpdPort, registryPort, idpPort] = [basePort, basePort + 1, basePort + 2, basePort + 3, basePort + 20];
  const idp = spawn(process.execPath, ["--import", "tsx", "dev-identity-provider/src/main.ts"], {
    env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "warn", DEV_IDP_PORT: String(idpPort), DEV_IDP_SIGNING_KEY_FILE: join(folder, "dev-idp-key.json") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  cleanups.unshift(async () => {
    if (idp.exitCode !== null) return;
    const exited = once(idp, "exit");
    idp.kill("SIGTERM");
    await exited;
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
  await playDeployment(
    "aopd",
    aopdPort,
    hostConfigMapFiles,
    onHostNetwork(aopdPort, { ...common, AOPD_HOST: "127.0.0.1", AOPD_PORT: String(aopdPort), METRICS_PORT: String(basePort + 11) }),
    pick(testValues, "DATABASE_URL", "AOPD_RECEIPT_SIGNING_KEY", "AOPD_AUDIT_KEY", "AOPD_CHECKPOINT_KEY", "AOPD_CHAIN_BITCOIN_URL"),
  );
  await playDeployment(
    "trpd",
    trpdPort,
    hostConfigMapFiles,
    onHostNetwork(trpdPort, { ...common, TRPD_HOST: "127.0.0.1", TRPD_PORT: String(trpdPort), METRICS_PORT: String(basePort + 12) }),
  );
  await playDeployment(
    "registry",
    registryPort,
    hostConfigMapFiles,
    onHostNetwork(registryPort, { ...common, REGISTRY_HOST: "127.0.0.1", REGISTRY_PORT: String(registryPort) }),
    pick(testValues, "REGISTRY_DATABASE_URL", "REGISTRY_SIGNING_KEY"),
  );
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await playDeployment(
    "gateway",
    gatewayPort,
    hostConfigMapFiles,
    onHostNetwork(gatewayPort, {
      ...common,
      HOST: "127.0.0.1",
      PORT: String(gatewayPort),
      OIDC_ISSUER: issuer,
      METRICS_PORT: String(basePort + 10),
      GATEWAY_REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
    }),
    pick(testValues, "INTERNAL_JWT_PRIVATE_JWK"),
  );
  // The registry serves nothing yet: the gateway started all the same, ready but degraded, and refuses /graphql until
  // the first version is published through its door.
  const apiToken = () => fetchToken(`${issuer}/protocol/openid-connect/token`, "dev-api-client", "dev-secret");
  const readiness = await fetch(`${gatewayUrl}/health/ready`).then(async (response) => `${response.status} ${await response.text()}`);
  if (!readiness.startsWith("200 ") || !readiness.includes("degraded"))
    throw new Error(`the gateway over an empty registry should be ready but degraded, answered: ${readiness}`);
  const unpublished = await fetch(`${gatewayUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${await apiToken()}` },
    body: '{"query":"{ __typename }"}',
  }).then(async (response) => `${response.status} ${await response.text()}`);
  if (!unpublished.startsWith("503 ") || !unpublished.includes("SERVICE_UNAVAILABLE"))
    throw new Error(`the gateway over an empty registry should answer /graphql 503 SERVICE_UNAVAILABLE, answered: ${unpublished}`);
  console.log("kube play: the gateway over an empty registry is ready, degraded, and answers /graphql 503");
  await runPublishJob("aopd", { SUBGRAPH_URL: `http://127.0.0.1:${aopdPort}/graphql`, GRAPH_URL: gatewayUrl, GRAPH_ISSUER_URL: issuer });
  await runPublishJob("trpd", { SUBGRAPH_URL: `http://127.0.0.1:${trpdPort}/graphql`, GRAPH_URL: gatewayUrl, GRAPH_ISSUER_URL: issuer });
  // The gateway took trpd's version from the registry within its poll: a read across both subgraphs.
  const token = await apiToken();
  const readBoth = async () =>
    fetch(`${gatewayUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: '{"query":"{ aopd { proofsCount } trpd { vasps { name } } }"}',
    }).then(async (response) => `${response.status} ${await response.text()}`);
  const served = await pollUntil(
    "the gateway serving both published subgraphs",
    readBoth,
    (answer) => answer.startsWith("200 ") && !answer.includes('"errors"'),
    {
      timeoutMs: 60_000,
    },
  );
  console.log(`kube play: the gateway serves aopd and trpd as their Jobs published them: ${served.slice(0, 120)}`);
  // The gateway's image holds no subgraph's routes: aopd's public routes are the ones its Job published.
  const receiptKeys = await fetch(`${gatewayUrl}/.well-known/aopd-receipt-keys.json`);
  await receiptKeys.body?.cancel();
  if (receiptKeys.status !== 200) throw new Error(`aopd's published route /.well-known/aopd-receipt-keys.json answered ${receiptKeys.status} at the gateway`);
  console.log("kube play: the gateway serves aopd's routes as its Job published them");

  /**
   * Runs `name`'s publish Job (in `name`.yaml) as kube play cannot: its init container (the subgraph's image) copies
   * the schema into a folder, then its publisher (the registry's image) runs with the Job's environment, `overrides`
   * for the hosts of the cluster's Services, and its Secrets' test values, read-only, on the host's network.
   */
  async function runPublishJob(name: string, overrides: Record<string, string>): Promise<void> {
    const job = (await read(`${name}.yaml`)).find((resource) => resource.kind === "Job")!;
    const { initContainers, containers } = job.spec.template.spec;
    const schemas = join(folder, `${name}-schemas`);
    await mkdir(schemas, { mode: 0o777 });
    await chmod(schemas, 0o777);
    const init = initContainers![0]!;
    await podman([
      "run",
      "--rm",
      "--read-only",
      "--volume",
      `${schemas}:/schemas`,
      "--entrypoint",
      init.command![0]!,
      `localhost/compliance-graph/${name}:${tag}`,
      ...init.command!.slice(1),
    ]);
    const publisher = containers[0]!;
    const env: Record<string, string> = {};
    for (const reference of publisher.envFrom ?? [])
      for (const secret of (await read("secrets.yaml")).filter((resource) => resource.metadata.name === reference.secretRef?.name))
        for (const key of Object.keys({ ...secret.data, ...secret.stringData })) env[key] = testValues[key]!;
    for (const entry of publisher.env ?? []) env[entry.name] = entry.value;
    // Every Job, aopd's with the first version too, goes through the gateway's door: it knows no other address and
    // holds no key but its client's (and the registry trusts the gateway's key alone, registry-internal-jwks above).
    const aroundTheGateway = Object.keys(env).filter((variable) => variable.startsWith("REGISTRY_"));
    if (!env.GRAPH_URL?.startsWith("http://gateway:") || aroundTheGateway.length > 0)
      throw new Error(
        `${name}'s publish Job goes around the gateway: GRAPH_URL ${env.GRAPH_URL}${aroundTheGateway.map((variable) => `, ${variable}`).join("")}`,
      );
    Object.assign(env, overrides, { PUBLISH_TIMEOUT_SECONDS: "180" });
    const started = Date.now();
    const output = await podman([
      "run",
      "--rm",
      "--network",
      "host",
      "--read-only",
      "--tmpfs",
      "/tmp",
      "--volume",
      `${schemas}:/schemas:ro`,
      ...Object.entries(env).flatMap(([variable, value]) => ["--env", `${variable}=${value}`]),
      `localhost/compliance-graph/registry:${tag}`,
      ...publisher.args!,
    ]);
    if (!output.includes(`publish-subgraph ${name}: served by the registry`)) throw new Error(`${name}'s publish Job did not publish:\n${output}`);
    console.log(
      `kube play: ${name}'s publish Job published it in ${Math.round((Date.now() - started) / 1000)} s (${output.split("\n").find((line) => line.startsWith(`${name}:`)) ?? ""})`,
    );
  }
} finally {
  await cleanUp();
}
