/**
 * A subgraph that cannot tell who calls does not start: without a verifier of the gateway's
 * internal token it used to serve every role to anyone unless NODE_ENV=production. Now only
 * INSECURE_DEVELOPMENT_IDENTITY=true, said explicitly and never in production, opens that door.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createLogger } from "@compliance-graph/process-shell";
import { startAopd } from "@compliance-graph/aopd";
import { startTrpd } from "@compliance-graph/trpd";

/** Runs the trpd deployable with `env` until `until` matches its output (then stops it) or it exits on its own. */
function runTrpd(env: Record<string, string>, until: RegExp): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "subgraphs/trpd/src/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "",
      INTERNAL_JWT_PUBLIC_JWKS: "",
      INTERNAL_JWKS_URL: "",
      INSECURE_DEVELOPMENT_IDENTITY: "",
      TRPD_PORT: "0",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`trpd neither printed ${until} nor exited within 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (until.test(output)) child.kill("SIGTERM");
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

describe("a subgraph without a way to verify the gateway's identity", () => {
  const logger = createLogger("subgraph", "silent");

  it("refuses to start, naming the variables that fix it, before it opens anything", async () => {
    await expect(startTrpd({ config: { port: 0, production: false }, logger })).rejects.toThrow(
      "The trpd subgraph has no way to verify the gateway's identity: set INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL, or, for development only, INSECURE_DEVELOPMENT_IDENTITY=true (every caller then has every role).",
    );
    // A database that does not exist is never reached: the door is decided first.
    await expect(startAopd({ config: { port: 0, databaseUrl: "postgres://postgres@127.0.0.1:9/never", production: false }, logger })).rejects.toThrow(
      /The aopd subgraph has no way to verify the gateway's identity/,
    );
  });

  it("starts with INSECURE_DEVELOPMENT_IDENTITY=true, serving every caller every role", async () => {
    const trpd = await startTrpd({ config: { port: 0, production: false }, insecureDevelopmentIdentity: true, logger });
    try {
      const response = await fetch(trpd.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ trpd { vasps { name } } }" }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    } finally {
      await trpd.close();
    }
  });

  it("refuses INSECURE_DEVELOPMENT_IDENTITY in production", async () => {
    await expect(startTrpd({ config: { port: 0, production: true }, insecureDevelopmentIdentity: true, logger })).rejects.toThrow(
      "The trpd subgraph refuses INSECURE_DEVELOPMENT_IDENTITY in production (NODE_ENV=production): it would give every caller every role.",
    );
  });

  // Mistyped values and production are refused by the same code in-process (packages/identity's tests and above).
  it("as a deployable, reads the flag from its environment: absent, and set", async () => {
    const absent = await runTrpd({}, /listening/);
    expect(absent.exitCode).toBe(1);
    expect(absent.output).toContain("The trpd subgraph has no way to verify the gateway's identity");
    // Stopped once it listens (SIGTERM may arrive before its shutdown handler: the exit code says nothing here).
    const set = await runTrpd({ INSECURE_DEVELOPMENT_IDENTITY: "true" }, /trpd subgraph listening/);
    expect(set.output).toContain("trpd subgraph listening");
    expect(set.output).toContain("INSECURE_DEVELOPMENT_IDENTITY: the trpd subgraph serves every caller as a developer with every role");
  }, 150_000);
});
