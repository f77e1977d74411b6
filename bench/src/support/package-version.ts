import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The installed version of a package, for the report; found from its main entry's folder upwards. */
export function packageVersion(name: string): string {
  let folder = dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // No package.json here; keep climbing.
    }
    const parent = dirname(folder);
    if (parent === folder) return "unknown";
    folder = parent;
  }
}
