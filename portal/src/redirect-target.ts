/**
 * Where to send the customer after success: the `redirect` query parameter, only when its origin is
 * one the operator allowed (`AOPD_PORTAL_REDIRECT_ORIGINS`, published in /portal/config.json).
 * Anything else is ignored, so a link cannot turn the portal into an open redirect.
 */
export async function redirectTarget(search: string): Promise<URL | undefined> {
  const requested = new URLSearchParams(search).get("redirect");
  if (!requested) return undefined;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return undefined;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return undefined;
  const response = await fetch("/portal/config.json");
  if (!response.ok) return undefined;
  const { redirectOrigins = [] } = (await response.json()) as { redirectOrigins?: string[] };
  return redirectOrigins.includes(target.origin) ? target : undefined;
}
