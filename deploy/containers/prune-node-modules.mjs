// Removes from node_modules every package the given workspace does not need at run time. `npm ci --omit=dev
// --workspace <name>` still installs what other workspaces' links bring (the gateway's development dependency on the
// development identity provider brought oidc-provider and koa into its image); `npm ls --omit=dev --all` knows the
// workspace's real tree, so whatever is not in it goes.
//
// Usage, in a Containerfile's build stage after npm ci: node deploy/containers/prune-node-modules.mjs <workspace>
import { execFileSync } from "node:child_process";
import console from "node:console";
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";

const workspace = process.argv[2];
if (!workspace) throw new Error("usage: prune-node-modules.mjs <workspace name>");
const listed = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable", "--workspace", workspace], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
const keep = new Set(
  listed
    .split("\n")
    .filter(Boolean)
    .map((path) => resolve(path)),
);
let removed = 0;

/** Walks a node_modules folder: a package kept is walked into (its own node_modules), one not kept is removed. */
function prune(folder) {
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith(".")) continue; // .bin, .package-lock.json
    const path = resolve(join(folder, entry));
    if (entry.startsWith("@") && !lstatSync(path).isSymbolicLink()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      continue;
    }
    if (!keep.has(path)) {
      rmSync(path, { recursive: true, force: true });
      removed++;
      continue;
    }
    const nested = join(path, "node_modules");
    if (!lstatSync(path).isSymbolicLink() && readdirSync(path).includes("node_modules")) prune(nested);
  }
}
prune(resolve("node_modules"));
console.log(`prune-node-modules: ${workspace} keeps ${keep.size - 1} packages, ${removed} removed`);
