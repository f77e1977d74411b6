import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pollUntil } from "@compliance-graph/test-kit";

/** `npm start` as a new user runs it, with its output collected. */
function startTrial(port: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, PORT: String(port), AOPD_DATA_DIR: "memory://", REGISTRY_DATA_DIR: "memory://", LOG_LEVEL: "warn", NODE_ENV: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  return { child, output };
}

async function listen(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

/** Four free consecutive ports (what `PORT` asks of the machine: the gateway, aopd, trpd, the registry), held while looking so the first answer is checked. */
async function freePortRun(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await listen(0);
    const base = (first.address() as { port: number }).port;
    const held = [first];
    try {
      held.push(await listen(base + 1), await listen(base + 2), await listen(base + 3));
      return base;
    } catch {
      // One of the next three is taken: try another run.
    } finally {
      await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  }
  throw new Error("no four free consecutive ports found in 50 tries");
}

/** stderr without oidc-provider's own warnings (the development provider's in-memory store; Node 20), which every start prints. */
const ownLines = (stderr: string) => stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("oidc-provider WARNING"));

const blockers: Server[] = [];
const children: ReturnType<typeof startTrial>["child"][] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(blockers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("npm start's ports", () => {
  it("moves every port with PORT and says how long a token lives", async () => {
    const base = await freePortRun();
    const trial = startTrial(base);
    children.push(trial.child);
    await pollUntil(
      "the banner",
      async () => trial.output.stdout,
      (text) => text.includes("is running at") || trial.child.exitCode !== null,
      { timeoutMs: 180_000 },
    );
    expect(ownLines(trial.output.stderr)).toEqual([]);
    expect(trial.output.stdout).toMatch(/it lives 300 seconds \(DEV_IDP_ACCESS_TOKEN_TTL_SECONDS\)/);
    // The subgraphs answer on the two ports after PORT, not on 4001 and 4002, and the registry on the third.
    for (const port of [base + 1, base + 2, base + 3]) expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    trial.child.kill("SIGTERM");
    const [code] = await once(trial.child, "exit");
    expect(code).toBe(0);
  }, 240_000);

  it("answers a taken port with one line naming the port and the variable that moves it", async () => {
    const base = await freePortRun();
    blockers.push(await listen(base + 1));
    const trial = startTrial(base);
    children.push(trial.child);
    const [code] = await once(trial.child, "exit");
    expect(code).toBe(1);
    expect(ownLines(trial.output.stderr)).toEqual([
      `Port ${base + 1} is already in use by another process: stop it, or set PORT (the subgraphs take the next two ports) or AOPD_PORT to a free port.`,
    ]);
    expect(trial.output.stdout).not.toContain("is running at");
  }, 240_000);
});
