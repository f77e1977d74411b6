import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ingressPaths, realmRolesOfClient, resourcesOf, validate, type Container, type Resource } from "./kubernetes-resources.js";
import { unknownKubernetesFields } from "./unknown-kubernetes-fields.js";

/**
 * The Kubernetes manifests (deploy/kubernetes), validated against the Kubernetes OpenAPI schemas by
 * `kubernetes-models` (its `validate()` is the API's JSON schema of each kind) and strictly against its types (which
 * refuse unknown fields, as `validate()` does not: see unknown-kubernetes-fields.ts), then held to
 * what docs/deploy.md promises of them: probes, drain, disruption budgets, the gateway's autoscaler, config and
 * secrets where they belong, the ingress's routes, and only the gateway reaching trpd.
 */
const folder = "deploy/kubernetes";

function yamlFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(join(directory, entry.name)) : entry.name.endsWith(".yaml") ? [join(directory, entry.name)] : [],
  );
}

const files = yamlFiles(folder);
const resources = files.flatMap((file) => resourcesOf(file).map((resource) => ({ file, resource })));
const cluster = resources.filter(({ resource }) => resource.kind !== "Kustomization").map(({ resource }) => resource);
const ofKind = (kind: string) => cluster.filter((resource) => resource.kind === kind);

interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean };
  containers: Container[];
}
const podSpecOf = (resource: Resource) => (resource.spec as { template: { spec: PodSpec } }).template.spec;

describe("the Kubernetes manifests", () => {
  it("are valid resources of the Kubernetes API, every one of them", async () => {
    expect(cluster.length).toBeGreaterThan(15);
    for (const resource of cluster) {
      await expect(
        validate(resource).then(() => "valid"),
        `${resource.kind} ${resource.metadata.name}`,
      ).resolves.toBe("valid");
    }
  });

  it("define no field the Kubernetes API does not know", () => {
    expect(unknownKubernetesFields(cluster)).toEqual([]);
  });

  it("are checked strictly enough to refuse a misspelled field, at any depth, naming the object and the field", () => {
    const misspelled = structuredClone(ofKind("Deployment")[0]!);
    const container = podSpecOf(misspelled).containers[0]! as Container & Record<string, unknown>;
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    const misplaced = structuredClone(ofKind("Service")[0]!);
    (misplaced.metadata as Record<string, unknown>).replicas = 2;
    const refusals = unknownKubernetesFields([misspelled, misplaced]);
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toMatch(new RegExp(`^Deployment ${misspelled.metadata.name}: .*readinesProbe.* does not exist in type 'IContainer'`));
    expect(refusals[1]).toMatch(new RegExp(`^Service ${misplaced.metadata.name}: .*replicas.* does not exist in type 'IObjectMeta'`));
    expect(unknownKubernetesFields([ofKind("Deployment")[0]!, ofKind("Service")[0]!])).toEqual([]);
  });

  // kubernetes-models' validate() checks types, required fields, enumerations and formats; it lets unknown fields
  // pass, which the check above covers.
  it("are checked by a validator that refuses a wrong type, a missing required field and an unknown enumeration value", async () => {
    const wrongType = structuredClone(ofKind("Deployment")[0]!);
    (wrongType.spec as Record<string, unknown>).replicas = "two";
    await expect(validate(wrongType)).rejects.toThrow(/replicas/);
    const noSelector = structuredClone(ofKind("Deployment")[0]!);
    delete (noSelector.spec as Record<string, unknown>).selector;
    await expect(validate(noSelector)).rejects.toThrow(/selector/);
    const badPathType = structuredClone(ofKind("Ingress")[0]!);
    (badPathType.spec as { rules: { http: { paths: { pathType: string }[] } }[] }).rules[0]!.http.paths[0]!.pathType = "Glob";
    await expect(validate(badPathType)).rejects.toThrow(/pathType/);
  });

  it("list every file in the kustomization, but the migration Job, which runs first", () => {
    const kustomization = resourcesOf(join(folder, "kustomization.yaml"))[0] as unknown as { resources: string[] };
    const listed = new Set(kustomization.resources);
    const present = readdirSync(folder).filter((name) => name.endsWith(".yaml") && name !== "kustomization.yaml" && name !== "migrate-job.yaml");
    expect([...listed].sort()).toEqual(present.sort());
  });

  it("give every deployable probes on /health/*, a drain that ends before the SIGKILL, resources, a disruption budget and a read-only non-root container", () => {
    const drainSeconds = Number(ofKind("ConfigMap").find((map) => map.metadata.name === "compliance-graph-config")!.data!.SHUTDOWN_DRAIN_SECONDS);
    const deployments = ofKind("Deployment");
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(["aopd", "console", "gateway", "keycloak", "registry", "trpd"]);
    // Keycloak (the trial's identity provider, deploy/kubernetes/keycloak) is the vendor's image and its own probes.
    for (const deployment of deployments.filter((candidate) => candidate.metadata.name !== "keycloak")) {
      const pod = podSpecOf(deployment);
      // SHUTDOWN_DRAIN_SECONDS plus the 5 s a stopping process allows itself after the drain.
      expect(pod.terminationGracePeriodSeconds, deployment.metadata.name).toBeGreaterThan(drainSeconds + 5);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      for (const container of pod.containers) {
        expect(container.livenessProbe?.httpGet?.path).toBe("/health/live");
        expect(container.startupProbe?.httpGet?.path).toBe("/health/live");
        expect(container.readinessProbe?.httpGet?.path).toBe("/health/ready");
        // aopd's readiness waits up to AOPD_READY_TIMEOUT_MS (2 s) for its database.
        expect(container.readinessProbe?.timeoutSeconds).toBeGreaterThanOrEqual(3);
        expect(container.resources?.requests?.cpu && container.resources.requests.memory && container.resources.limits?.memory).toBeTruthy();
        expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      }
      const budgets = ofKind("PodDisruptionBudget").filter(
        (budget) =>
          (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels["app.kubernetes.io/name"] === deployment.metadata.name,
      );
      expect(budgets, `a PodDisruptionBudget for ${deployment.metadata.name}`).toHaveLength(1);
    }
    const autoscalers = ofKind("HorizontalPodAutoscaler");
    expect(autoscalers.map((autoscaler) => (autoscaler.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name)).toEqual(["gateway"]);
  });

  it("take secrets from Secrets and the rest from ConfigMaps: the signing key, the database URL and the chain keys never in a ConfigMap", () => {
    const secretNames = [
      "INTERNAL_JWT_PRIVATE_JWK",
      "DATABASE_URL",
      "AOPD_CHAIN_BITCOIN_URL",
      "REGISTRY_DATABASE_URL",
      "REGISTRY_SIGNING_KEY",
      "GRAPH_CLIENT_SECRET",
    ];
    for (const map of ofKind("ConfigMap")) for (const name of secretNames) expect(map.data ?? {}, map.metadata.name).not.toHaveProperty(name);
    const secrets = ofKind("Secret")
      .map((secret) => Object.keys((secret.stringData ?? {}) as object))
      .flat();
    expect(secrets).toEqual(expect.arrayContaining(secretNames));
    const references = (name: string) => podSpecOf(ofKind("Deployment").find((deployment) => deployment.metadata.name === name)!).containers[0]!.envFrom!;
    expect(references("gateway")).toContainEqual({ secretRef: { name: "gateway-internal-signing-key" } });
    expect(references("aopd")).toContainEqual({ secretRef: { name: "aopd-database" } });
    expect(references("registry")).toEqual(
      expect.arrayContaining([{ secretRef: { name: "registry-database" } }, { secretRef: { name: "registry-signing-key" } }]),
    );
    // The gateway's public internal-token key, published to the subgraphs.
    for (const subgraph of ["aopd", "trpd"]) expect(references(subgraph)).toContainEqual({ configMapRef: { name: "internal-jwks" } });
    const job = resourcesOf(join(folder, "migrate-job.yaml"))[0]!;
    expect(job.kind).toBe("Job");
    expect((job.spec as { template: { spec: PodSpec } }).template.spec.containers[0]!.envFrom).toContainEqual({ secretRef: { name: "aopd-database" } });
  });

  it("import the committed realm into Keycloak, unchanged", () => {
    const realm = resourcesOf(join(folder, "keycloak", "realm-config-map.yaml"))[0]!;
    expect(JSON.parse(realm.data!["dev-realm.json"]!)).toEqual(JSON.parse(readFileSync("dev-identity-provider/realm/dev-realm.json", "utf8")));
  });

  it("route exactly the ingress paths of docs/operations.md (but the trial's /auth/)", () => {
    const ingress = ofKind("Ingress").find((candidate) => candidate.metadata.name === "compliance-graph")!;
    const routed = (ingress.spec as { rules: { http: { paths: { path: string }[] } }[] }).rules.flatMap((rule) => rule.http.paths.map((path) => path.path));
    expect(routed.sort()).toEqual(ingressPaths());
  });

  it("let only the gateway reach trpd, and aopd only from the gateway and the ingress controller", () => {
    const policies = ofKind("NetworkPolicy");
    const forApp = (name: string) =>
      policies.filter(
        (policy) =>
          ((policy.spec as { podSelector: { matchLabels?: Record<string, string> } }).podSelector.matchLabels ?? {})["app.kubernetes.io/name"] === name,
      );
    const sources = (name: string) =>
      forApp(name).flatMap((policy) =>
        (policy.spec as { ingress: { from: Record<string, unknown>[]; ports: { port: number }[] }[] }).ingress
          .filter((rule) => rule.ports.some((port) => port.port !== 9464))
          .flatMap((rule) => rule.from),
      );
    expect(sources("trpd")).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } }]);
    expect(sources("aopd")).toEqual([
      { podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } },
      { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } },
    ]);
    expect(policies.some((policy) => policy.metadata.name === "default-deny-ingress")).toBe(true);
  });

  it("let the gateway reach any pod labelled as a subgraph, so that a team's new subgraph needs no edit here", () => {
    const labelled = ofKind("NetworkPolicy").filter(
      (policy) =>
        (policy.spec as { podSelector: { matchLabels?: Record<string, string> } }).podSelector.matchLabels?.["compliance-graph.dev/subgraph"] === "true",
    );
    expect(labelled).toHaveLength(1);
    const rules = (labelled[0]!.spec as { ingress: { from: Record<string, unknown>[]; ports?: { port: number }[] }[] }).ingress;
    expect(rules.filter((rule) => rule.ports === undefined).flatMap((rule) => rule.from)).toEqual([
      { podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } },
    ]);
    expect(rules.filter((rule) => rule.ports !== undefined).flatMap((rule) => rule.ports!.map((port) => port.port))).toEqual([9464]);
  });

  it("list no subgraph for the gateway: it serves the supergraph the registry signed, with the registry's keys given out of band", () => {
    const config = ofKind("ConfigMap").find((map) => map.metadata.name === "compliance-graph-config")!.data!;
    const gateway = podSpecOf(ofKind("Deployment").find((deployment) => deployment.metadata.name === "gateway")!).containers[0]!;
    const subgraphUrls = [...Object.keys(config), ...(gateway.env ?? []).map((entry) => entry.name)].filter((name) => /^SUBGRAPH_.*_URL$/.test(name));
    expect(subgraphUrls).toEqual([]);
    expect(config.GATEWAY_REGISTRY_URL).toBe("http://registry:4010");
    expect(gateway.envFrom).toContainEqual({ configMapRef: { name: "registry-public-keys" } });
    const keys = ofKind("ConfigMap").find((map) => map.metadata.name === "registry-public-keys")!.data!;
    expect(JSON.parse(keys.GATEWAY_SUPERGRAPH_KEYS!)).toMatchObject({ keys: [{ kty: "EC", crv: "P-256" }] });
    const service = ofKind("Service").find((candidate) => candidate.metadata.name === "registry")!;
    expect((service.spec as { ports: { port: number }[] }).ports.map((port) => port.port)).toEqual([4010]);
  });

  it("publish each subgraph with a Job of its own: its schema out of its own image, the command line through the gateway", () => {
    interface JobPod {
      metadata: { labels: Record<string, string> };
      spec: {
        initContainers: { image: string; command: string[] }[];
        containers: { image: string; args: string[]; env: { name: string; value?: string }[]; envFrom: { secretRef: { name: string } }[] }[];
      };
    }
    const jobs = ofKind("Job").filter((job) => job.metadata.labels?.["app.kubernetes.io/name"]?.endsWith("-publish"));
    expect(jobs.map((job) => job.metadata.name).sort()).toEqual(["aopd-publish-0-1-0", "trpd-publish-0-1-0"]);
    for (const job of jobs) {
      const subgraph = job.metadata.name.split("-")[0]!;
      const pod = (job.spec as { template: JobPod }).template;
      expect(pod.metadata.labels["compliance-graph.dev/publisher"]).toBe("true");
      expect(pod.spec.initContainers[0]!.image).toBe(`compliance-graph/${subgraph}`);
      expect(pod.spec.initContainers[0]!.command).toContain(`subgraphs/${subgraph}/${subgraph}.graphql`);
      const publisher = pod.spec.containers[0]!;
      expect(publisher.image).toBe("compliance-graph/registry");
      expect(publisher.args).toEqual(["deploy/containers/publish-subgraph.ts"]);
      const env = Object.fromEntries(publisher.env.map((entry) => [entry.name, entry.value]));
      expect(env).toMatchObject({
        SUBGRAPH_NAME: subgraph,
        SUBGRAPH_URL: expect.stringMatching(new RegExp(`^http://${subgraph}:\\d+/graphql$`)),
        GRAPH_URL: "http://gateway:4000",
      });
      // The first version too goes through the gateway's door: no publisher holds a key or an address of the registry's.
      expect(publisher.envFrom).toEqual([{ secretRef: { name: "registry-publisher-client" } }]);
      expect(Object.keys(env).filter((name) => name.startsWith("REGISTRY_"))).toEqual([]);
    }
  });

  it("name a publishers' client that the committed realm defines, granted schema:publish and nothing else", () => {
    const client = ofKind("Secret").find((secret) => secret.metadata.name === "registry-publisher-client")!.stringData as Record<string, string>;
    expect(realmRolesOfClient(client.GRAPH_CLIENT_ID!)).toEqual(["schema:publish"]);
  });

  it("let the registry trust the gateway's internal-token key alone: every publish comes through the gateway", () => {
    const keysOf = (name: string) =>
      (JSON.parse(ofKind("ConfigMap").find((map) => map.metadata.name === name)!.data!.INTERNAL_JWT_PUBLIC_JWKS!) as { keys: { kid: string }[] }).keys;
    expect(keysOf("registry-internal-jwks")).toEqual(keysOf("internal-jwks"));
    expect(keysOf("registry-internal-jwks")).toHaveLength(1);
  });

  it("let only the gateways reach the registry, and the publishers reach the gateway's door", () => {
    const policies = ofKind("NetworkPolicy");
    const rulesFor = (name: string) =>
      policies
        .filter(
          (policy) => (policy.spec as { podSelector: { matchLabels?: Record<string, string> } }).podSelector.matchLabels?.["app.kubernetes.io/name"] === name,
        )
        .flatMap((policy) => (policy.spec as { ingress: { from: Record<string, unknown>[]; ports: { port: number }[] }[] }).ingress);
    const publishers = { podSelector: { matchLabels: { "compliance-graph.dev/publisher": "true" } } };
    expect(rulesFor("registry")).toEqual([
      { from: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } }], ports: [{ port: 4010, protocol: "TCP" }] },
    ]);
    expect(rulesFor("gateway")).toContainEqual({ from: [publishers], ports: [{ port: 4000, protocol: "TCP" }] });
  });
});
