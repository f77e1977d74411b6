// Copies the repository's own packages a workspace runs on into an image's tree: exactly the workspace folders that
// its production dependency tree (`npm ls --omit=dev --all`, the tree prune-node-modules.mjs keeps) reaches, so a
// Containerfile keeps no list of them by hand. The workspace itself is the Containerfile's own business (which of its
// files an image needs), so it is left out.
//
// Usage, in a Containerfile's build stage after npm ci: node deploy/containers/copy-workspaces.mjs <workspace> <out>
import { execFileSync } from "node:child_process";
import console from "node:console";
import { cpSync, realpathSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import process from "node:process";

const [workspace, out] = process.argv.slice(2);
if (!workspace || !out) throw new Error("usage: copy-workspaces.mjs <workspace name> <out folder>");
const root = resolve(".");
const listed = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable", "--workspace", workspace], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
const own = new Set();
for (const path of listed.split("\n").filter(Boolean)) {
  const folder = relative(root, realpathSync(path));
  // A workspace folder is one of the repository's own, not anything under a node_modules.
  if (folder !== "" && !folder.startsWith("..") && !folder.split(sep).includes("node_modules")) own.add(folder);
}
const self = [...own].find(
  (folder) => JSON.parse(execFileSync("node", ["-p", `JSON.stringify(require("./${folder}/package.json").name)`], { encoding: "utf8" })) === workspace,
);
own.delete(self);
for (const folder of [...own].sort()) cpSync(folder, join(out, folder), { recursive: true, verbatimSymlinks: true });
console.log(`copy-workspaces: ${workspace} runs on ${[...own].sort().join(", ") || "no other workspace"}`);
