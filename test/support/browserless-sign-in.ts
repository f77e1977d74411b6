import { createHash, randomBytes } from "node:crypto";

/** The cookies a browser would keep for one origin (paths ignored: every cookie is sent back). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
    return response;
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** One request with the jar's cookies, redirects not followed (each step is looked at). */
export async function step(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  return jar.take(await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } }));
}
