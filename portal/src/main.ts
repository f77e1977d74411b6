import "./style.css";
import { signWithBrowserWallet, browserWallet } from "./browser-wallet.js";
import { finalStatuses, isCustomerDone, type PageActions, type PageState } from "./page-state.js";
import { fetchProofView, PortalApiError, submitSignature, submitTransaction, uploadMedia, watchProof } from "./portal-api.js";
import type { PublicProofView } from "@compliance-graph/portal-contract";
import { redirectTarget } from "./redirect-target.js";
import { renderPage } from "./render-page.js";
import { applyTheme } from "./theme.js";
import { loadTranslations, preferredLanguage, translator } from "./translations.js";

const root = document.getElementById("page")!;
const languageSelect = document.getElementById("language") as HTMLSelectElement;
// The one-time credential is the last path segment: /portal/<credential>.
const token = /^\/portal\/([A-Za-z0-9_-]{43})\/?$/.exec(location.pathname)?.[1];

// Everything the first render needs is asked for at once: texts, theme, redirect target and the proof.
const firstView = token ? fetchProofView(token).then((view) => ({ view }), (error: unknown) => ({ error })) : undefined;
const [translations, , redirect] = await Promise.all([loadTranslations(), applyTheme(document.documentElement), redirectTarget(location.search)]);
const state: PageState = {
  token,
  view: undefined,
  failure: token ? undefined : "unknown",
  t: translator(translations, preferredLanguage(translations, navigator.languages ?? [navigator.language])),
  redirect,
  form: { address: "", signature: "", xpub: "", txId: "" },
  notice: undefined,
  busy: false,
  uploadProgress: undefined,
};

let stopWatching: (() => void) | undefined;
let redirectTimer: number | undefined;

const render = () => renderPage(root, state, actions);

function reasonOf(error: unknown): string {
  if (error instanceof PortalApiError) return state.t.has(`error.${error.code}`) ? state.t(`error.${error.code}`) : error.message;
  return state.t("error.service_unavailable");
}

/**
 * Takes a new view of the proof; returns whether its status changed. Once the proof is settled the
 * live updates stop, and after success the customer is sent back to the allowed redirect target.
 */
function show(view: PublicProofView): boolean {
  const changed = state.view?.status !== view.status;
  state.view = view;
  if (finalStatuses.has(view.status)) stopWatching?.();
  if (isCustomerDone(view) && state.redirect && redirectTimer === undefined) {
    const target = state.redirect.toString();
    redirectTimer = window.setTimeout(() => location.assign(target), 3_000);
  }
  return changed;
}

async function submit(operation: () => Promise<PublicProofView>) {
  state.busy = true;
  state.notice = undefined;
  await render();
  try {
    show(await operation());
  } catch (error) {
    state.notice = { kind: "error", text: reasonOf(error) };
  } finally {
    state.busy = false;
    await render();
  }
}

const actions: PageActions = {
  submitSignature: (submission) => void submit(() => submitSignature(token!, submission)),
  submitTransaction: (txId) => void submit(() => submitTransaction(token!, txId)),
  uploadMedia: (file) =>
    void submit(async () => {
      state.uploadProgress = 0;
      try {
        return await uploadMedia(token!, file, (share) => {
          state.uploadProgress = share;
          void render();
        });
      } finally {
        state.uploadProgress = undefined;
      }
    }),
  signWithBrowserWallet: () =>
    void submit(async () => {
      const provider = browserWallet();
      if (!provider || !state.view?.signature) throw new PortalApiError("wallet_refused", "No browser wallet.", 0);
      let signed: { address: string; signature: string };
      try {
        signed = await signWithBrowserWallet(provider, state.view.signature.message);
      } catch (error) {
        throw new PortalApiError("wallet_refused", error instanceof Error ? error.message : "The wallet refused.", 0);
      }
      return submitSignature(token!, signed);
    }),
  copy: (text) => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        state.notice = { kind: "success", text: state.t("form.copied") };
        void render();
      },
      () => undefined,
    );
  },
};

for (const language of state.t.languages) {
  const option = new Option(translator(translations, language)("language.name"), language, false, language === state.t.language);
  languageSelect.append(option);
}
languageSelect.addEventListener("change", () => {
  state.t = translator(translations, languageSelect.value);
  document.querySelectorAll<HTMLElement>("[data-text]").forEach((element) => (element.textContent = state.t(element.dataset.text!)));
  void render();
});
document.querySelectorAll<HTMLElement>("[data-text]").forEach((element) => (element.textContent = state.t(element.dataset.text!)));

const first = await firstView;
if (token && first && "view" in first) {
  show(first.view);
  if (!finalStatuses.has(first.view.status)) {
    stopWatching = watchProof(token, (view) => {
      if (show(view)) void render();
    });
  }
} else if (first && "error" in first) {
  state.failure = first.error instanceof PortalApiError && first.error.code === "unknown_proof" ? "unknown" : "unavailable";
}
await render();
// The page is ready for the customer: what the benchmark reads as "interactive".
performance.mark("portal-ready");
