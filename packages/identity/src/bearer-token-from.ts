import type { IncomingHttpHeaders } from "node:http";

/** Largest token accepted; a JWT of ours is well under 4 KiB, so more is refused unparsed. */
const maxTokenLength = 16_384;

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 section 2.1), or undefined when
 * the header is absent, of another scheme, or not token-shaped.
 */
export function bearerTokenFrom(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  const token = match?.[1];
  return token !== undefined && token.length <= maxTokenLength ? token : undefined;
}
