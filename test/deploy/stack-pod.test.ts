import { describe, expect, it } from "vitest";
import { haproxyConfig } from "../../deploy/replica-test/load-balancer.js";
import { ingressPaths, realmRolesOfClient, resourcesOf, validate, type Container } from "./kubernetes-resources.js";
import { unknownKubernetesFields } from "./unknown-kubernetes-fields.js";

describe("the stack Pod (deploy/stack/stack.yaml, npm run stack:pod)", () => {
  const stack = resourcesOf("deploy/stack/stack.yaml");
  const pod = stack.find((resource) => resource.kind === "Pod")!;
  const containers = (
    pod.spec as unknown as {
      containers: (Omit<Container, "env"> & {
        ports?: { containerPort: number; hostPort?: number }[];
        env?: { name: string; value?: string; valueFrom?: unknown }[];
      })[];
    }
  ).containers;
  const envOf = (name: string, key: string) => containers.find((container) => container.name === name)!.env!.find((entry) => entry.name === key)?.value;

  it("is valid Kubernetes resources with no unknown field", async () => {
    for (const resource of stack)
      await expect(
        validate(resource).then(() => "valid"),
        `${resource.kind} ${resource.metadata.name}`,
      ).resolves.toBe("valid");
    expect(unknownKubernetesFields(stack)).toEqual([]);
  });

  it("publishes only the door and the identity provider, and names one issuer everywhere", () => {
    expect(
      containers.flatMap((container) => (container.ports ?? []).filter((port) => port.hostPort !== undefined).map((port) => port.hostPort)).sort(),
    ).toEqual([4000, 4080]);
    const issuer = `${envOf("dev-identity-provider", "DEV_IDP_PUBLIC_URL")}/auth/realms/dev`;
    expect([envOf("gateway-1", "OIDC_ISSUER"), envOf("gateway-2", "OIDC_ISSUER"), envOf("console", "CONSOLE_OIDC_ISSUER")]).toEqual([issuer, issuer, issuer]);
  });

  it("publishes as the realm's publishers' client, granted schema:publish and nothing else", () => {
    for (const publisher of ["publish-aopd", "publish-trpd"]) expect(realmRolesOfClient(envOf(publisher, "GRAPH_CLIENT_ID")!)).toEqual(["schema:publish"]);
  });

  it("takes every secret from its Secret, never as a value", () => {
    const secretNames = [
      "INTERNAL_JWT_PRIVATE_JWK",
      "INTERNAL_JWT_PUBLIC_JWKS",
      "AOPD_RECEIPT_SIGNING_KEY",
      "AOPD_AUDIT_KEY",
      "AOPD_CHECKPOINT_KEY",
      "POSTGRES_PASSWORD",
      "DATABASE_URL",
      "REGISTRY_SIGNING_KEY",
    ];
    const literal = containers.flatMap((container) =>
      (container.env ?? [])
        .filter((entry) => secretNames.includes(entry.name) && entry.valueFrom === undefined)
        .map((entry) => `${container.name} ${entry.name}`),
    );
    expect(literal).toEqual([]);
  });

  it("runs the registry, a publisher per subgraph and gateways that serve from the registry, listing no subgraph", () => {
    for (const gateway of ["gateway-1", "gateway-2"]) {
      const names = containers.find((container) => container.name === gateway)!.env!.map((entry) => entry.name);
      expect(
        names.filter((name) => /^SUBGRAPH_.*_URL$/.test(name)),
        gateway,
      ).toEqual([]);
      expect(envOf(gateway, "GATEWAY_REGISTRY_URL")).toBe(`http://127.0.0.1:${envOf("registry", "REGISTRY_PORT")}`);
      expect(names).toContain("GATEWAY_SUPERGRAPH_KEYS");
    }
    for (const subgraph of ["aopd", "trpd"]) {
      expect(envOf(`publish-${subgraph}`, "SUBGRAPH_NAME")).toBe(subgraph);
      expect(envOf(`publish-${subgraph}`, "GRAPH_URL")).toBe("http://127.0.0.1:4000");
    }
  });

  it("lets the registry trust the gateways' internal-token key alone", () => {
    const secretKeyOf = (container: string) =>
      (
        containers.find((candidate) => candidate.name === container)!.env!.find((entry) => entry.name === "INTERNAL_JWT_PUBLIC_JWKS")!.valueFrom as {
          secretKeyRef: { key: string };
        }
      ).secretKeyRef.key;
    expect(secretKeyOf("registry")).toBe("INTERNAL_JWT_PUBLIC_JWKS");
  });

  const haproxyConfigOfStack = () => stack.find((resource) => resource.kind === "ConfigMap")!.data!["haproxy.cfg"]!;

  it("balances with the replica test's HAProxy settings: its checks, timeouts and retries", () => {
    const defaults = (config: string) => {
      const lines = config
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith("#"));
      const start = lines.indexOf("defaults");
      const end = lines.findIndex((line, index) => index > start && /^(frontend|backend|global|listen)\b/.test(line));
      return lines.slice(start, end);
    };
    const pool = { port: 1, servers: [] };
    expect(defaults(haproxyConfigOfStack())).toEqual(defaults(haproxyConfig({ gateway: pool }, 2)));
  });

  it("routes at its door exactly the ingress paths of docs/operations.md", () => {
    const config = haproxyConfigOfStack();
    const routed = [...config.matchAll(/^\s*acl \w+ (?:path|path_beg) (.+)$/gm)]
      .flatMap((match) => match[1]!.split(" "))
      .map((path) => path.replace(/\/$/, ""));
    expect(routed.sort()).toEqual(ingressPaths());
  });
});
