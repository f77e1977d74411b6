import { ensureImages, playStack, removeStack, stackDoor, stackIssuer, stackPortTaken, stopStack, waitUntilServing } from "./pod-stack.js";

/**
 * `npm run stack:pod`: the whole stack of deploy/stack/stack.yaml as one podman Pod (docs/deploy.md), started in the
 * background. The first time it creates the stack's Secret in podman's store and builds the images that are missing
 * (IMAGE_TAG, default `local`). `npm run stack:pod -- down` stops it and keeps its database; `-- remove` drops the
 * database and the Secret too. POSTGRES_IMAGE and HAPROXY_IMAGE replace the official images.
 */
const command = process.argv[2] ?? "up";
const options = {
  imageTag: process.env.IMAGE_TAG ?? "local",
  ...(process.env.POSTGRES_IMAGE ? { postgresImage: process.env.POSTGRES_IMAGE } : {}),
  ...(process.env.HAPROXY_IMAGE ? { haproxyImage: process.env.HAPROXY_IMAGE } : {}),
};
if (command === "down") {
  await stopStack(options);
} else if (command === "remove") {
  await removeStack(options);
} else if (command === "up") {
  const taken = await stackPortTaken();
  if (taken) {
    console.error(taken);
    process.exit(1);
  }
  await ensureImages(options.imageTag);
  await playStack(options);
  await waitUntilServing();
  console.log(`
The stack is running as the podman Pod compliance-graph-stack: two gateways at ${stackDoor}/graphql serving what the
schema registry publishes (aopd and trpd, published by their publisher containers; yours with
npm run subgraph -- publish, GRAPH_URL=${stackDoor}), two aopd behind ${stackDoor}/portal/ and /aopp/, the console at
http://localhost:4000/console/ (demo-officer / demo-password), PostgreSQL inside the Pod, the development identity
provider at ${stackIssuer} (tokens live 5 minutes).

  TOKEN=$(curl -s -X POST ${stackIssuer}/protocol/openid-connect/token \\
    -d client_id=dev-api-client -d grant_type=client_credentials -d client_secret=dev-secret -d scope=openid \\
    | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s ${stackDoor}/graphql -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"query":"{ aopd { proofsCount } }"}'

npm run stack:pod -- down stops it (its database is kept); -- remove drops the database too.
`);
} else {
  console.error(`npm run stack:pod -- ${command}: unknown command; use up (the default), down or remove.`);
  process.exit(2);
}
