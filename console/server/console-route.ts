import { loadStaticPage, staticPageRoute } from "@compliance-graph/process-shell";

/**
 * What the console reads from `/console/config.json` at start: the identity provider and client it
 * signs in with, and the block explorers it links addresses to. In production any web server
 * serves the built files and a `config.json` the operator writes (docs/console.md).
 */
export interface ConsoleSettings {
  /** The OIDC issuer (`https://id.example.com/realms/compliance`). */
  issuer: string;
  /** The public OIDC client of the console. @default "compliance-graph-frontend" */
  clientId?: string;
  /** Per network (`bitcoin`, `ethereum`, ...): an explorer URL with `{address}` or `{tx}` in it. @default the public explorers in the console */
  explorers?: Record<string, { address?: string; tx?: string }>;
}

/**
 * Serves the built console under `/console/` (what `npm start` and the browser tests use; a
 * production deployment may use any web server with the same headers). Threat: the console holds
 * an officer's access token in the page, so no script but its own may run there and no other site
 * may frame it (a strict Content-Security-Policy with `frame-ancestors 'none'`); it talks to this
 * origin and the identity provider only (`connect-src`), and sends no referrer, so neither a
 * proof's id nor the authorization code in the callback's query leaks to a linked block explorer.
 * Every path that is not a file gets `index.html`, the console's own router decides.
 */
export function consoleRoute(distDir: string, settings: ConsoleSettings) {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw new Error(`consoleRoute: issuer must be an absolute URL such as https://id.example.com/realms/compliance; got ${JSON.stringify(settings.issuer)}.`);
  }
  // Tokens and passwords must not cross the network in clear text in production.
  if (issuer.protocol !== "https:" && (process.env.NODE_ENV === "production" || issuer.protocol !== "http:")) {
    throw new Error(`consoleRoute: issuer must use https${process.env.NODE_ENV === "production" ? " in production" : " or http"}; got ${issuer.protocol}.`);
  }
  for (const [network, explorer] of Object.entries(settings.explorers ?? {})) {
    for (const [kind, template] of Object.entries(explorer)) {
      if (typeof template !== "string" || !/^https:\/\//.test(template) || !template.includes(`{${kind === "tx" ? "tx" : "address"}}`)) {
        throw new Error(
          `consoleRoute: explorers.${network}.${kind} must be an https URL containing {${kind === "tx" ? "tx" : "address"}}; got ${JSON.stringify(template)}.`,
        );
      }
    }
  }
  const files = loadStaticPage(distDir, { "config.json": Buffer.from(JSON.stringify({ clientId: "compliance-graph-frontend", ...settings })) });
  return staticPageRoute({
    path: "/console",
    files,
    policy: [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' blob: data:",
      "media-src 'self' blob:",
      `connect-src 'self' ${issuer.origin}`,
      "object-src 'none'",
      "base-uri 'none'",
      `form-action 'self' ${issuer.origin}`,
    ],
    frameAncestors: "'none'",
    barePath: "redirect",
    notBuiltMessage: "The console is not built: npm run build -w @compliance-graph/console.",
  });
}
