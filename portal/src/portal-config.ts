import type { PortalConfig } from "@compliance-graph/portal-contract";

/** `/portal/config.json`, the operator's settings; none (no redirects, no contact) when it cannot be read. */
export async function loadPortalConfig(): Promise<PortalConfig> {
  try {
    const response = await fetch("/portal/config.json");
    if (response.ok) return (await response.json()) as PortalConfig;
  } catch {
    // An outage shows on the proof's own request; the page works without redirects or contact.
  }
  return { redirectOrigins: [], contact: null };
}
