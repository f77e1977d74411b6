// A subgraph publishes itself: `subgraph publish` (registry/src/cli) with the subgraph's own schema and routes,
// through the gateway's door (GRAPH_URL) with a token of the identity provider, exactly as a team's pipeline does
// (docs/new-subgraph.md). Run by the registry's image, as a Job per subgraph in Kubernetes (deploy/kubernetes) and as
// one container per subgraph in the stack Pod (deploy/stack/stack.yaml).
//
// The environment: SUBGRAPH_NAME, SUBGRAPH_URL (its routing URL), SUBGRAPH_SCHEMA_FILE, SUBGRAPH_ROUTES_FILE (optional:
// a file of subgraph-routes.yaml's shape; the routes of this subgraph are published), and the command line's own
// (GRAPH_URL, GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET with GRAPH_TOKEN_URL or GRAPH_ISSUER_URL).
//
// - While the command line could not run (exit 2: the gateway or the identity provider not up yet, as when everything
//   starts at once) it tries again every 5 s, up to PUBLISH_TIMEOUT_SECONDS (default 900); then it exits 2.
// - A refusal (exit 1: does not compose, or a breaking change in use) is final: the report says why, and forcing it is
//   a person's decision (`--force --reason`), never a deployment's.
// - The first version of an empty registry goes through the gateway like every later one: a gateway whose registry
//   serves nothing yet starts anyway and serves its door (the registry's command-line routes among them), so no
//   publisher needs a way around it.
// - SUBGRAPH_PUBLISHER_STAY=true: after publishing, it waits for SIGTERM instead of exiting, for a Pod whose restart
//   policy would run it again and again (the stack Pod).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml, stringify } from "yaml";

const env = process.env;
const required = (name: string): string => {
  const value = env[name];
  if (!value) {
    console.error(`publish-subgraph: ${name} is required`);
    process.exit(2);
  }
  return value;
};
const name = required("SUBGRAPH_NAME");
const url = required("SUBGRAPH_URL");
const schema = required("SUBGRAPH_SCHEMA_FILE");
const timeoutSeconds = Number(env.PUBLISH_TIMEOUT_SECONDS ?? 900);
const cli = fileURLToPath(new URL("../../registry/src/cli/main.ts", import.meta.url));
const log = (message: string) => console.log(`publish-subgraph ${name}: ${message}`);

/** This subgraph's routes out of a routes file (every subgraph's, as subgraph-routes.yaml holds them), in a file of their own. */
async function ownRoutesFile(file: string): Promise<string> {
  const parsed = parseYaml(await readFile(file, "utf8")) as { routes?: { subgraph?: string }[] } | { subgraph?: string }[] | null;
  const routes = (Array.isArray(parsed) ? parsed : (parsed?.routes ?? [])).filter((route) => route.subgraph === name);
  const own = join(await mkdtemp(join(tmpdir(), "publish-subgraph-")), `${name}-routes.yaml`);
  await writeFile(own, stringify({ routes }));
  return own;
}

/** Runs the command line once; its exit code. */
async function publish(arguments_: string[]): Promise<number> {
  const child = spawn(process.execPath, ["--import", "tsx", cli, "publish", ...arguments_], { env, stdio: "inherit" });
  const [code] = (await once(child, "exit")) as [number | null];
  return code ?? 2;
}

const deadline = Date.now() + timeoutSeconds * 1_000;
// The files may still be on their way (the stack Pod's subgraph copies them as it starts).
for (const file of [schema, env.SUBGRAPH_ROUTES_FILE].filter((path): path is string => Boolean(path))) {
  while (!existsSync(file)) {
    if (Date.now() > deadline) {
      log(`gave up after ${timeoutSeconds} s: ${file} is not there`);
      process.exit(2);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
const arguments_ = ["--name", name, "--url", url, "--schema", schema];
if (env.SUBGRAPH_ROUTES_FILE) arguments_.push("--routes", await ownRoutesFile(env.SUBGRAPH_ROUTES_FILE));

let code = 2;
for (;;) {
  code = await publish(arguments_);
  if (code !== 2 || Date.now() > deadline) break;
  log("could not run yet; trying again in 5 s");
  await new Promise((resolve) => setTimeout(resolve, 5_000));
}
if (code !== 0) {
  log(code === 1 ? "refused (the report above says why)" : `gave up after ${timeoutSeconds} s`);
  process.exit(code);
}
log("served by the registry");
if (env.SUBGRAPH_PUBLISHER_STAY === "true") {
  process.once("SIGTERM", () => process.exit(0));
  process.once("SIGINT", () => process.exit(0));
  setInterval(() => undefined, 2 ** 30);
}
