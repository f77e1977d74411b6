import { createHash } from "node:crypto";
import { originOf } from "./origin-of.js";

const html = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The one script the page runs: it sends the provider's own logout form, as Keycloak does without asking. */
const submitScript = `document.getElementById("op.logoutForm").submit();`;
const submitScriptHash = `'sha256-${createHash("sha256").update(submitScript).digest("base64")}'`;

const texts = {
  en: { title: "Signing out", busy: "Signing you out…", ask: "Sign out of this session?", yes: "Sign out", no: "Stay signed in" },
  de: { title: "Abmelden", busy: "Sie werden abgemeldet…", ask: "Von dieser Sitzung abmelden?", yes: "Abmelden", no: "Angemeldet bleiben" },
} as const;

interface LogoutContext {
  oidc: { params?: Record<string, unknown> };
  set(name: string, value: string): void;
  type: string;
  body?: unknown;
}

/**
 * oidc-provider's `logoutSource` as Keycloak behaves: a logout that carries the client's
 * `id_token_hint` (which the provider has checked against the client before this runs) signs out
 * at once, the form sent by its one script (allowed by its hash, nothing else), with a button
 * where scripts are off; one without it asks first. Styled as the sign-in page, in English or in
 * German (`ui_locales`), never oidc-provider's own unstyled "Do you want to sign-out" page.
 */
export async function devLogoutSource(ctx: LogoutContext, form: string): Promise<void> {
  const locales = String(ctx.oidc.params?.ui_locales ?? "")
    .toLowerCase()
    .split(/\s+/);
  const language = locales.some((locale) => locale.startsWith("de")) ? "de" : "en";
  const text = texts[language];
  const hinted = typeof ctx.oidc.params?.id_token_hint === "string" && ctx.oidc.params.id_token_hint !== "";
  // The provider's form carries the xsrf token; `logout=yes` is what its "yes" button would send.
  const confirmed = form.replace("</form>", `<input type="hidden" name="logout" value="yes"></form>`);
  // The form goes to the provider, whose answer redirects to the client's (checked) post-logout URI: both may receive it.
  const back = originOf(ctx.oidc.params?.post_logout_redirect_uri);
  ctx.set(
    "content-security-policy",
    `default-src 'none'; style-src 'unsafe-inline'; script-src ${submitScriptHash}; form-action 'self'${back ? ` ${back}` : ""}; frame-ancestors 'none'; base-uri 'none'`,
  );
  ctx.set("cache-control", "no-store");
  ctx.type = "html";
  ctx.body = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(text.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}button{margin:1.5rem .5rem 0 0;padding:.6rem 1.2rem;font-size:1rem}</style>
</head><body><main>
${
  hinted
    ? `<h1>${html(text.busy)}</h1>${confirmed}<noscript><button type="submit" form="op.logoutForm">${html(text.yes)}</button></noscript><script>${submitScript}</script>`
    : `<h1>${html(text.ask)}</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${html(text.yes)}</button><button type="submit" form="op.logoutForm">${html(text.no)}</button>`
}
</main></body></html>`;
}
