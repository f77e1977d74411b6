import type { SubgraphRoute } from "./subgraph-route.js";

/** The name the registry's routes are forwarded under: the internal token's audience, and `SUBGRAPH_REGISTRY_URL`. */
export const registryDoorSubgraph = "registry";

/**
 * The schema registry's routes behind the gateway's door (docs/schema-registry.md): what
 * `npm run subgraph -- ...` calls, and the public keys that verify a published supergraph. Served
 * whenever the gateway knows a registry (`GATEWAY_REGISTRY_URL`, or `SUBGRAPH_REGISTRY_URL` beside
 * a supergraph file), in code rather than in `subgraph-routes.yaml` because a gateway that takes
 * its routes from the registry reads no file, and the first publish must reach the registry before
 * any route is published. The registry's internal paths (`/supergraph`, `/usage`) are not among them.
 */
export const registryDoorRoutes: readonly SubgraphRoute[] = [
  { path: "/registry/subgraphs/", subgraph: registryDoorSubgraph, methods: ["GET", "POST"], role: "schema:publish", headersTimeoutSeconds: 120 },
  { path: "/registry/owners/", subgraph: registryDoorSubgraph, methods: ["POST"], role: "schema:admin" },
  { path: "/.well-known/registry-keys.json", subgraph: registryDoorSubgraph, methods: ["GET", "HEAD"], public: true },
];
