import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { generateDevSigningKey } from "@compliance-graph/dev-identity-provider";
import { freePort, pollUntil } from "@compliance-graph/test-kit";
import { fetchToken } from "../support/start-stack.js";

/** The provider in its own process, as a developer or a container runs it; its standard error piped. */
const spawnProvider = (env: Record<string, string>) =>
  spawn(process.execPath, ["--import", "tsx", "dev-identity-provider/src/main.ts"], {
    env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });

/** `spawnProvider`, resolved once it answers. */
async function startProvider(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawnProvider(env);
  child.stderr!.resume();
  const discovery = `http://127.0.0.1:${port}/auth/realms/dev/.well-known/openid-configuration`;
  const answering = async () => {
    if (child.exitCode !== null) throw new Error(`the provider exited with ${child.exitCode}`);
    return fetch(discovery).then(
      (response) => response.ok,
      () => false,
    );
  };
  try {
    await pollUntil("the provider answering", answering, (ok) => ok, { intervalMs: 100 });
    return child;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

describe("the development identity provider as a process of its own", () => {
  let folder: string;
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("keeps its signing key in a file, so tokens it issued verify after a restart", async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-dev-idp-"));
    const port = await freePort();
    const keyFile = join(folder, "keys", "signing-key.json");
    const env = { DEV_IDP_PORT: String(port), DEV_IDP_SIGNING_KEY_FILE: keyFile };
    const issuer = `http://127.0.0.1:${port}/auth/realms/dev`;

    let provider = await startProvider(env, port);
    const token = await fetchToken(`${issuer}/protocol/openid-connect/token`, "dev-api-client", "dev-secret");
    await stop(provider);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    provider = await startProvider(env, port);
    try {
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`)), {
        issuer,
        audience: "compliance-graph",
      });
      expect(payload.azp).toBe("dev-api-client");
    } finally {
      await stop(provider);
    }
  }, 90_000);

  it("takes its signing key from DEV_IDP_SIGNING_KEY when given (a Secret), and refuses one that is not a private RSA key", async () => {
    const port = await freePort();
    const key = await generateDevSigningKey("from-a-secret");
    const provider = await startProvider({ DEV_IDP_PORT: String(port), DEV_IDP_SIGNING_KEY: JSON.stringify(key) }, port);
    try {
      const certs = (await (await fetch(`http://127.0.0.1:${port}/auth/realms/dev/protocol/openid-connect/certs`)).json()) as { keys: { kid: string }[] };
      expect(certs.keys.map((published) => published.kid)).toEqual(["from-a-secret"]);
    } finally {
      await stop(provider);
    }
    const { d: _private, ...publicHalf } = key;
    const refused = spawnProvider({ DEV_IDP_PORT: String(port), DEV_IDP_SIGNING_KEY: JSON.stringify(publicHalf) });
    let stderr = "";
    refused.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(refused, "exit")) as [number | null];
    expect(code).not.toBe(0);
    expect(stderr).toContain("DEV_IDP_SIGNING_KEY holds no RSA private JWK with a kid.");
  }, 90_000);
});
