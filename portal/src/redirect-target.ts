import type { PortalConfig } from "@compliance-graph/portal-contract";

/**
 * Where to send the customer after success: the `redirect` query parameter, only when its origin is
 * one the operator allowed (`AOPD_PORTAL_REDIRECT_ORIGINS`, published in /portal/config.json).
 * Anything else is ignored, so a link cannot turn the portal into an open redirect.
 */
export function redirectTarget(search: string, config: PortalConfig): URL | undefined {
  const requested = new URLSearchParams(search).get("redirect");
  if (!requested) return undefined;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return undefined;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return undefined;
  return config.redirectOrigins.includes(target.origin) ? target : undefined;
}
