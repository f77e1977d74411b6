import { readFile } from "node:fs/promises";

/** The portal's translations, theme and logo, base64-encoded once at start-up. */
export interface PortalResources {
  lang: string;
  theme: string;
  logo: string;
}

/**
 * Reads and checks the resources before the subgraph takes traffic, so that a broken file is a
 * start-up error an operator sees, not a field error a client sees.
 */
export async function loadPortalResources(files: { langFile: URL | string; themeFile: URL | string; logoFile: URL | string }): Promise<PortalResources> {
  const [lang, theme, logo] = await Promise.all([readFile(files.langFile), readFile(files.themeFile), readFile(files.logoFile)]);
  for (const [name, content] of [
    ["lang", lang],
    ["theme", theme],
  ] as const) {
    try {
      const parsed: unknown = JSON.parse(content.toString("utf8"));
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    } catch (error) {
      throw new Error(`The portal ${name} file is not a JSON object: ${(error as Error).message}`);
    }
  }
  if (!/<svg[\s>]/.test(logo.toString("utf8"))) throw new Error("The portal logo file is not an SVG image.");
  return { lang: lang.toString("base64"), theme: theme.toString("base64"), logo: logo.toString("base64") };
}
