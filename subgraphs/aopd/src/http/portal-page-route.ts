import { loadStaticPage, staticPageRoute, type Logger, type RouteDefinition, type StaticPageFile } from "@compliance-graph/process-shell";
import type { PortalConfig } from "@compliance-graph/portal-contract";
import type { AopdConfig } from "../aopd-config.js";
import type { PortalResources } from "../portal/load-portal-resources.js";

/**
 * The files behind `/portal/`: the built page from `distDir` and the operator's translations, theme
 * and logo (AOPD_*_FILE, the same the GraphQL `lang`, `theme` and `logo` serve), so that replacing
 * those needs a restart but no rebuild. Undefined when the page was not built.
 */
export function loadPortalFiles(
  distDir: string,
  resources: PortalResources,
  config: Pick<AopdConfig, "portalRedirectOrigins" | "portalContact">,
): Map<string, StaticPageFile> | undefined {
  const pageConfig: PortalConfig = { redirectOrigins: config.portalRedirectOrigins, contact: config.portalContact };
  return loadStaticPage(distDir, {
    "lang.json": Buffer.from(resources.lang, "base64"),
    "theme.json": Buffer.from(resources.theme, "base64"),
    "logo.svg": Buffer.from(resources.logo, "base64"),
    "config.json": Buffer.from(JSON.stringify(pageConfig)),
  });
}

/**
 * Serves the customer portal's page under `/portal/` (the API under `/portal/api/` is another
 * route). Threat: the page is where customers paste signatures, so it must not run anyone else's
 * script or be framed by a site that overlays it (clickjacking): a strict Content-Security-Policy
 * (scripts, styles and connections from this origin only; `frame-ancestors` from
 * AOPD_PORTAL_FRAME_ANCESTORS, default nowhere), `nosniff`, and no referrer, so the one-time
 * credential in the path never leaves in a Referer header (`staticPageRoute`). Every path that is
 * not a file gets the page itself, which tells the customer in their language that the link is not valid.
 */
export function portalPageRoute(
  files: Map<string, StaticPageFile> | undefined,
  config: Pick<AopdConfig, "portalFrameAncestors">,
  logger: Logger,
): RouteDefinition<never>[] {
  if (!files) logger.warn("the portal page is not built (npm run build -w @compliance-graph/portal); /portal/ answers 503");
  return staticPageRoute({
    path: "/portal",
    files,
    policy: [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ],
    frameAncestors: config.portalFrameAncestors,
    barePath: "page",
    notBuiltMessage: "The portal is not available.",
  });
}
