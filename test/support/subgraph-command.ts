import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../../registry/src/cli/main.ts", import.meta.url));

export interface SubgraphCommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run subgraph -- ...` as a team's pipeline runs it: a process of its own, with `env` beside this one's. */
export function subgraphCommand(args: string[], env: Record<string, string>): Promise<SubgraphCommandOutcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", cli, ...args], { env: { ...process.env, ...env }, timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
