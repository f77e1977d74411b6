import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseAllDocuments, stringify } from "yaml";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { pollUntil } from "@compliance-graph/test-kit";

/**
 * `podman kube play` of the Kubernetes manifests' Pod parts that podman runs as they are: trpd's and the console's
 * Deployments (one replica each) with the ConfigMaps of deploy/kubernetes/config.yaml, the images built by
 * build-images.sh, the manifests' security context (user 1000, read-only root, no capabilities), the /tmp emptyDir
 * and the environment they define. Each pod must answer its readiness probe from inside. aopd's and the gateway's
 * Deployments read Secrets, which podman 4.3 takes only from its own store: the replica test runs them as containers.
 *
 * Usage: node --import tsx deploy/podman/kube-play-check.ts   (IMAGE_TAG, default `test`)
 */
const run = promisify(execFile);
const podman = async (...args: string[]) => (await run("podman", args, { timeout: 300_000 })).stdout.trim();
const tag = process.env.IMAGE_TAG ?? "test";
const folder = await mkdtemp(join(tmpdir(), "kube-play-"));
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
}
const read = async (file: string) => parseAllDocuments(await readFile(join("deploy/kubernetes", file), "utf8")).map((document) => document.toJS() as Manifest);

try {
  // The ConfigMaps as a site fills them in: a real public internal-token key instead of the placeholder.
  const key = await generateInternalSigningKey("kube-play-check");
  const configMaps = (await read("config.yaml")).map((map) =>
    map.metadata.name === "internal-jwks" ? { ...map, data: { INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }) } } : map,
  );
  const configMapFiles: string[] = [];
  for (const map of configMaps) {
    const file = join(folder, `${map.metadata.name}.yaml`);
    await writeFile(file, stringify(map));
    configMapFiles.push("--configmap", file);
  }

  for (const [name, port] of [["trpd", 4002], ["console", 8081]] as const) {
    const deployment = (await read(`${name}.yaml`)).find((resource) => resource.kind === "Deployment")!;
    deployment.spec.replicas = 1;
    deployment.spec.template.spec.containers[0]!.image = `localhost/compliance-graph/${name}:${tag}`;
    const file = join(folder, `${name}-deployment.yaml`);
    await writeFile(file, stringify(deployment));
    await podman("kube", "play", "--replace", ...configMapFiles, file);
    try {
      // podman names a Deployment's containers <deployment>-pod-<replica>-<container>.
      const container = `${name}-pod-0-${name}`;
      const probe = `fetch('http://127.0.0.1:${port}/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`;
      await pollUntil(`${name} ready inside its pod`, () => podman("exec", container, "node", "-e", probe).then(() => true, () => false), (ok) => ok, { timeoutMs: 180_000, intervalMs: 1_000 });
      const [user, readOnly] = (await podman("inspect", "--format", "{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}", container)).split(" ");
      if (readOnly !== "true" || !user?.startsWith("1000")) throw new Error(`${name}: expected user 1000 and a read-only root, got user ${user} and read-only ${readOnly}`);
      console.log(`kube play: ${name} ready (user ${user}, read-only root file system)`);
    } finally {
      await podman("kube", "down", file).catch(() => "");
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
