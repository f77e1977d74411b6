import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { DevUser } from "./dev-identity-provider-config.js";
import { originOf } from "./origin-of.js";

/** Largest login form accepted (username and password, URL-encoded). @default 8192 bytes */
const maxFormBytes = 8192;

const html = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The sign-in page of the development identity provider, at `<realm>/login/<interaction uid>`,
 * for the authorization code flow (the officer console's). Threats it stops, modest as befits a
 * development tool that still runs on a shared machine: the page runs no script and may not be
 * framed (CSP, `frame-ancestors 'none'`), so another page cannot overlay it and harvest the
 * password; the form is bound to its interaction by the provider's own interaction cookie, so a
 * login cannot be submitted cross-site into someone else's flow; passwords are compared in
 * constant time by the caller's `checkPassword`; a wrong username and a wrong password get the
 * same answer, so the page does not tell which usernames exist. The form may be sent only to the
 * provider itself and to the origin of the client's redirect URI, which the provider checked
 * against the client's registered URIs before the page was shown: browsers hold the redirect that
 * answers a form to `form-action` too, and it ends at the client (another origin when the provider
 * runs apart from the console, as in deploy/stack/stack.yaml).
 */
export function devLoginPage(options: {
  provider: () => Provider;
  realmPath: string;
  realmName: string;
  findUser: (username: string, password: string) => DevUser | undefined;
  /** The account id the provider keeps for the user: the token's `sub`. */
  accountIdOf: (user: DevUser) => string;
}) {
  const prefix = `${options.realmPath}/login/`;
  const send = (response: ServerResponse, status: number, body: string, redirectOrigin = "") => {
    response.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ""}; frame-ancestors 'none'; base-uri 'none'`,
      "x-frame-options": "DENY",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
    response.end(body);
  };
  const page = (action: string, clientId: string, username: string, error?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to ${html(options.realmName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}[role=alert]{color:#a40000;margin-top:1rem}</style>
</head><body><main>
<h1>Sign in to ${html(options.realmName)}</h1>
<p>Application: ${html(clientId)}</p>
${error ? `<p role="alert">${html(error)}</p>` : ""}
<form method="post" action="${html(action)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus value="${html(username)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;

  return async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (!path.startsWith(prefix)) return false;
    const provider = options.provider();
    let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
    try {
      details = await provider.interactionDetails(request, response);
    } catch {
      send(
        response,
        400,
        "<!doctype html><title>Sign-in expired</title><p>This sign-in has expired or was already used. Go back to the application and sign in again.</p>",
      );
      return true;
    }
    const clientId = String(details.params.client_id ?? "");
    const redirectOrigin = originOf(details.params.redirect_uri);
    if (request.method === "GET") {
      send(response, 200, page(path, clientId, ""), redirectOrigin);
      return true;
    }
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "GET, POST" }).end();
      return true;
    }
    const form = await readForm(request);
    if (!form) {
      send(response, 413, page(path, clientId, "", `The form is larger than ${maxFormBytes} bytes.`), redirectOrigin);
      return true;
    }
    const username = form.get("username") ?? "";
    const user = options.findUser(username, form.get("password") ?? "");
    if (!user) {
      send(response, 401, page(path, clientId, username, "Invalid username or password."), redirectOrigin);
      return true;
    }
    await provider.interactionFinished(request, response, { login: { accountId: options.accountIdOf(user) } }, { mergeWithLastSubmission: false });
    return true;
  };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFormBytes) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
