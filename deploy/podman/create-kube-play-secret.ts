import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Puts `values` in podman's secret store as `name`, in the form `podman kube play` reads a Pod's Secret from:
 * podman 4.3 reads a Pod's Secrets only from its own store, as JSON mapping each key to its base64 value (a Secret's
 * `data`). Replaces a secret of that name. The file it is made from is readable by its owner only and removed after.
 */
export async function createKubePlaySecret(name: string, values: Record<string, string>): Promise<void> {
  const data = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString("base64")]));
  const folder = await mkdtemp(join(tmpdir(), "kube-play-secret-"));
  try {
    const file = join(folder, "secret.json");
    await writeFile(file, JSON.stringify(data), { mode: 0o600 });
    await run("podman", ["secret", "rm", name], { timeout: 60_000 }).catch(() => undefined);
    await run("podman", ["secret", "create", name, file], { timeout: 60_000 });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
