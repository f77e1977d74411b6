import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ClosedLoopPlan, ClosedLoopResult } from "./closed-loop-load-process.js";

export type { ClosedLoopPlan, ClosedLoopResult };

const loadProcess = fileURLToPath(new URL("./closed-loop-load-process.ts", import.meta.url));

/** Runs `closed-loop-load-process.ts` in a process of its own (its CPU is never the server's) and returns its figures. */
export async function runClosedLoopLoad(plan: ClosedLoopPlan): Promise<ClosedLoopResult> {
  const child = spawn(process.execPath, ["--import", "tsx", loadProcess, JSON.stringify(plan)], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the load process exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as ClosedLoopResult;
}
