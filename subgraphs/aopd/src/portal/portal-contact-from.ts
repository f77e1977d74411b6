import type { PortalContact } from "@compliance-graph/portal-contract";

const emailAddress = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[A-Za-z]{2,}$/;

/**
 * `AOPD_PORTAL_CONTACT`: whom a customer with an expired or finished link asks for a new one, an
 * https URL (`https://vasp.example/support`) or an e-mail address (`support@vasp.example`, with or
 * without `mailto:`). Threat: the page turns it into a link, so only these two forms are taken (no
 * `javascript:` or other scheme), and in production the URL must be https. Undefined or empty: none.
 */
export function portalContactFrom(value: string | undefined, production: boolean): PortalContact | null {
  const entry = value?.trim();
  if (!entry) return null;
  const address = entry.replace(/^mailto:/i, "");
  if (emailAddress.test(address)) return { kind: "email", href: `mailto:${address}`, label: address };
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  const allowed = production ? ["https:"] : ["https:", "http:"];
  if (!url || !allowed.includes(url.protocol) || url.username || url.password) {
    throw new Error(
      `AOPD_PORTAL_CONTACT must be an e-mail address (support@vasp.example) or ${production ? "an https" : "an http(s)"} URL (https://vasp.example/support); got ${JSON.stringify(entry)}.`,
    );
  }
  return { kind: "url", href: url.href, label: url.href };
}
