import { containerReplica } from "./container-replica.js";
import { processReplica } from "./process-replica.js";
import { startReplicaStack } from "./start-replica-stack.js";

/**
 * `npm run stack:replicas`: the replica stack with one command (the compose file's part, docs/deploy.md), until
 * Ctrl-C. REPLICA_STACK_RUNTIME `processes` (default) or `podman` (the images of deploy/podman/build-images.sh,
 * IMAGE_TAG default `local`); PostgreSQL is the one of DATABASE_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), where the stack makes a database of its own and drops it at the end;
 * REPLICA_STACK_BASE_PORT (default 5600) and on: the ports, one after another.
 */
process.env.APOLLO_TELEMETRY_DISABLED = "1";
const runtime = (process.env.REPLICA_STACK_RUNTIME ?? "processes") as "podman" | "processes";
if (runtime !== "podman" && runtime !== "processes") {
  console.error(`REPLICA_STACK_RUNTIME must be podman or processes; got ${JSON.stringify(runtime)}.`);
  process.exit(2);
}
const imageTag = process.env.IMAGE_TAG ?? "local";
const stack = await startReplicaStack({
  runtime,
  makeReplica: runtime === "podman" ? containerReplica(imageTag, `replica-stack-${process.pid}`) : processReplica,
  adminDatabaseUrl: process.env.DATABASE_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  databasePrefix: "replica_stack",
  basePort: Number(process.env.REPLICA_STACK_BASE_PORT ?? 5600),
  imageTag,
});
console.log(`
The replica stack (${runtime}) is running: two gateways behind ${stack.gatewayUrl}, two aopd behind the same HAProxy.

  TOKEN=$(curl -s -X POST ${stack.issuer}/protocol/openid-connect/token \\
    -d client_id=dev-api-client -d grant_type=client_credentials -d client_secret=dev-secret -d scope=openid \\
    | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s ${stack.gatewayUrl}/graphql -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"query":"{ aopd { proofsCount } }"}'

Replicas: ${[...stack.gateways, ...stack.aopds].map((replica) => `${replica.name} ${replica.base}`).join(", ")}
Ctrl-C stops everything and drops the stack's database.
`);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stack.close().then(() => process.exit(0));
  });
}
