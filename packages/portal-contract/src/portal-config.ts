/** Whom a customer asks for a new link: a web page or an e-mail address (`AOPD_PORTAL_CONTACT`). */
export interface PortalContact {
  kind: "url" | "email";
  /** The link as the page sets it: the URL itself, or `mailto:` and the address. */
  href: string;
  /** What the page shows: the URL or the address. */
  label: string;
}

/** `/portal/config.json`: the operator's settings the page needs. */
export interface PortalConfig {
  /** Origins `?redirect=` may send the customer back to (`AOPD_PORTAL_REDIRECT_ORIGINS`). */
  redirectOrigins: string[];
  /** Named on the expired, failed and invalid-link pages; null when the operator set none. */
  contact: PortalContact | null;
}
