import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parseAllDocuments, stringify } from "yaml";
import { generateDevSigningKey } from "@compliance-graph/dev-identity-provider";
import { generateCheckpointKey } from "@compliance-graph/aopd/internals";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { fetchToken, pollUntil } from "@compliance-graph/test-kit";
import { createKubePlaySecret } from "../podman/create-kube-play-secret.js";

const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const stackFile = fileURLToPath(new URL("stack.yaml", import.meta.url));
process.env.CONTAINERS_CONF ??= `${repositoryRoot}deploy/podman/containers.conf`;

const podman = async (args: string[], timeoutMs = 300_000) => (await run("podman", args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();

/** Our images in stack.yaml; PostgreSQL's and HAProxy's are the official ones unless replaced. */
export const stackImages = ["dev-identity-provider", "trpd", "aopd", "registry", "gateway", "console"] as const;

export interface PodStackOptions {
  /** Appended to the Pod's, the volume's, the ConfigMap's and the Secret's names, so that a test's stack is its own. @default "" */
  suffix?: string;
  /** The tag of our images. @default "local" */
  imageTag?: string;
  /** Instead of the official images (where no registry is reachable). */
  postgresImage?: string;
  haproxyImage?: string;
}

interface Container {
  name: string;
  image: string;
  env?: { valueFrom?: { secretKeyRef?: { name: string } } }[];
}

interface Resource {
  kind: string;
  metadata: { name: string };
  spec: {
    volumes?: { persistentVolumeClaim?: { claimName: string }; configMap?: { name: string } }[];
    containers?: Container[];
    initContainers?: Container[];
  };
}

const names = (suffix: string) => ({
  pod: `compliance-graph-stack${suffix}`,
  secret: `compliance-graph-stack${suffix}`,
  volume: `compliance-graph-stack-postgres${suffix}`,
  configMap: `compliance-graph-stack-haproxy${suffix}`,
});

/** The Pod's name, whose containers are `<pod>-<container>`. */
export const podNameOf = (options: PodStackOptions = {}) => names(options.suffix ?? "").pod;

/**
 * Creates the stack's Secret in podman's store unless it is there: the gateways' internal signing key and its public
 * half, aopd's receipt signing key (one for both replicas), the identity provider's signing key, PostgreSQL's password
 * and the URL aopd and the registry reach it at, the registry's signing key and its public half (the gateways' trusted
 * keys). Kept until `removeStack`: a new password would lock aopd out of the kept database, a new receipt key would
 * void the receipts issued, a new identity provider key the tokens issued, a new registry key the versions signed.
 */
async function ensureStackSecret(options: PodStackOptions = {}): Promise<void> {
  const { secret } = names(options.suffix ?? "");
  if (
    await podman(["secret", "inspect", secret]).then(
      () => true,
      () => false,
    )
  )
    return;
  const internal = await generateInternalSigningKey();
  const receiptKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
  const password = randomBytes(24).toString("hex");
  const registryKey = await generateInternalSigningKey(`stack-registry-${randomBytes(6).toString("hex")}`);
  const values: Record<string, string> = {
    INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(internal.privateJwk),
    INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [internal.publicJwk] }),
    AOPD_RECEIPT_SIGNING_KEY: JSON.stringify({ ...receiptKey, kid: `stack-${randomBytes(6).toString("hex")}` }),
    AOPD_AUDIT_KEY: `stack-${randomBytes(6).toString("hex")}:${randomBytes(32).toString("base64")}`,
    AOPD_CHECKPOINT_KEY: generateCheckpointKey("stack.compliance-graph.invalid/aopd-audit"),
    DEV_IDP_SIGNING_KEY: JSON.stringify(await generateDevSigningKey()),
    POSTGRES_PASSWORD: password,
    DATABASE_URL: `postgres://postgres:${password}@127.0.0.1:5432/aopd`,
    // An ES256 key pair like the internal one: the registry signs each version with it.
    REGISTRY_SIGNING_KEY: JSON.stringify(registryKey.privateJwk),
    REGISTRY_PUBLIC_JWKS: JSON.stringify({ keys: [registryKey.publicJwk] }),
  };
  await createKubePlaySecret(secret, values);
}

/** Builds those of our images that are missing, with deploy/podman/build-images.sh. */
export async function ensureImages(tag: string): Promise<void> {
  const missing: string[] = [];
  for (const name of stackImages)
    if (
      !(await podman(["image", "exists", `localhost/compliance-graph/${name}:${tag}`]).then(
        () => true,
        () => false,
      ))
    )
      missing.push(name);
  if (missing.length === 0) return;
  console.error(`building ${missing.join(", ")} (tag ${tag}); a first build takes minutes`);
  const child = spawn("bash", [`${repositoryRoot}deploy/podman/build-images.sh`, ...missing], {
    env: { ...process.env, IMAGE_TAG: tag },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`build-images.sh exited with ${code}`);
}

/** stack.yaml with the options applied, in a file of its own (returned) for `podman kube play` and `kube down`. */
async function renderStack(options: PodStackOptions): Promise<string> {
  const suffix = options.suffix ?? "";
  const named = names(suffix);
  const tag = options.imageTag ?? "local";
  const resources = parseAllDocuments(await readFile(stackFile, "utf8")).map((document) => document.toJS() as Resource);
  for (const resource of resources) {
    if (resource.kind === "PersistentVolumeClaim") resource.metadata.name = named.volume;
    if (resource.kind === "ConfigMap") resource.metadata.name = named.configMap;
    if (resource.kind !== "Pod") continue;
    resource.metadata.name = named.pod;
    for (const volume of resource.spec.volumes ?? []) {
      if (volume.persistentVolumeClaim) volume.persistentVolumeClaim.claimName = named.volume;
      if (volume.configMap) volume.configMap.name = named.configMap;
    }
    for (const container of [...(resource.spec.initContainers ?? []), ...(resource.spec.containers ?? [])]) {
      container.image = container.image.replace(/^(localhost\/compliance-graph\/[a-z-]+):local$/, `$1:${tag}`);
      if (container.name === "postgres" && options.postgresImage) container.image = options.postgresImage;
      if (container.name === "balancer" && options.haproxyImage) container.image = options.haproxyImage;
      for (const entry of container.env ?? []) if (entry.valueFrom?.secretKeyRef) entry.valueFrom.secretKeyRef.name = named.secret;
    }
  }
  const file = join(tmpdir(), `${named.pod}.yaml`);
  // podman 4.3 refuses to play a claim whose volume exists (a stack played again after `down`): the Pod then mounts
  // the kept volume by its name.
  const volumeKept = await podman(["volume", "exists", named.volume]).then(
    () => true,
    () => false,
  );
  const played = resources.filter((resource) => !(volumeKept && resource.kind === "PersistentVolumeClaim"));
  await writeFile(file, played.map((resource) => stringify(resource)).join("---\n"));
  return file;
}

/** Plays the stack (replacing a running one of the same name); resolves once podman has started it, not once it serves. */
export async function playStack(options: PodStackOptions = {}): Promise<void> {
  await ensureStackSecret(options);
  await podman(["kube", "play", "--replace", await renderStack(options)]);
}

/**
 * Stops and removes the Pod and the volume podman made of its ConfigMap (played again, it is made again from
 * stack.yaml); its database volume and Secret are kept for the next play.
 */
export async function stopStack(options: PodStackOptions = {}): Promise<void> {
  await podman(["kube", "down", await renderStack(options)]);
  await podman(["volume", "rm", "--force", names(options.suffix ?? "").configMap]);
}

/** Stops the Pod and removes its database volume and Secret too: the next play starts empty, with new secrets. */
export async function removeStack(options: PodStackOptions = {}): Promise<void> {
  const named = names(options.suffix ?? "");
  await stopStack(options).catch(() => undefined);
  await podman(["volume", "rm", "--force", named.volume]).catch(() => undefined);
  await podman(["secret", "rm", named.secret]).catch(() => undefined);
}

/** The ports the stack publishes: the door and the identity provider. */
export const stackPorts = [4000, 4080];

/** The one line to say when a port the stack publishes is taken, or undefined when both are free. */
export async function stackPortTaken(): Promise<string | undefined> {
  for (const port of stackPorts) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
        .once("error", () => resolve(false))
        .listen(port, "0.0.0.0", () => server.close(() => resolve(true)));
    });
    if (!free)
      return `port ${port} is in use (by npm start, or a stack already playing?): the stack publishes ${stackPorts.join(" and ")}; stop what holds it first.`;
  }
  return undefined;
}

/** The stack's door. */
export const stackDoor = "http://127.0.0.1:4000";
/** The development identity provider's issuer, as tokens carry it. */
export const stackIssuer = "http://localhost:4080/auth/realms/dev";

/**
 * Resolves once HAProxy routes every path of the door to a live replica: /graphql to a gateway, /portal/ to an aopd,
 * /console/ to the console (it answers 503 while a pool has no replica up), and the gateways serve both subgraphs, as
 * their publishers put them in the registry (a read of both with the API client's token answers without errors).
 */
export async function waitUntilServing(timeoutMs = 300_000): Promise<void> {
  const bothSubgraphs = async () => {
    const token = await fetchToken(`${stackIssuer}/protocol/openid-connect/token`, "dev-api-client", "dev-secret").catch(() => undefined);
    if (!token) return "no token yet";
    const answer = await fetch(`${stackDoor}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: '{"query":"{ aopd { proofsCount } trpd { vasps { name } } }"}',
      signal: AbortSignal.timeout(10_000),
    }).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: Error) => error.message,
    );
    return answer.startsWith("200 ") && !answer.includes('"errors"') ? "served" : answer.slice(0, 300);
  };
  const status = (path: string, init?: RequestInit) =>
    fetch(`${stackDoor}${path}`, { ...init, signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      () => 0,
    );
  await pollUntil(
    "the stack serving at its door",
    async () => ({
      graphql: await status("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' }),
      portal: await status("/portal/"),
      console: await status("/console/"),
    }),
    (seen) => Object.values(seen).every((code) => code !== 0 && code < 500),
    { timeoutMs, intervalMs: 1_000 },
  );
  await pollUntil("both subgraphs published and served at the door", bothSubgraphs, (seen) => seen === "served", { timeoutMs, intervalMs: 2_000 });
}
