import "./style.css";
import type { PublicProofView } from "@compliance-graph/portal-contract";
import { keepLanguageInAddress } from "./language-in-address.js";
import { isCustomerDone, type PageActions, type PageState } from "./page-state.js";
import { fetchProofView, PortalApiError, submitSignature, submitTransaction, uploadMedia, watchProof } from "./portal-api.js";
import { loadPortalConfig } from "./portal-config.js";
import { redirectTarget } from "./redirect-target.js";
import { refusalText } from "./refusal-text.js";
import { renderPage } from "./render-page.js";
import { revealMessage } from "./reveal-message.js";
import { applyTheme } from "./theme.js";
import { loadTranslations, preferredLanguage, translator } from "./translations.js";
import { discoverWallets } from "./wallets/discover-wallets.js";
import { signWithWallet } from "./wallets/sign-with-wallet.js";

const root = document.getElementById("page")!;
const languageSelect = document.getElementById("language") as HTMLSelectElement;
// The one-time credential is the last path segment: /portal/<credential>.
const token = /^\/portal\/([A-Za-z0-9_-]{43})\/?$/.exec(location.pathname)?.[1];

const loadView = () =>
  token
    ? fetchProofView(token).then(
        (view) => ({ view }),
        (error: unknown) => ({ error }),
      )
    : undefined;
// Everything the first render needs is asked for at once: texts, theme, the operator's settings and the proof.
const firstView = loadView();
const [translations, , config] = await Promise.all([loadTranslations(), applyTheme(document.documentElement), loadPortalConfig()]);
const state: PageState = {
  token,
  view: undefined,
  failure: token ? undefined : "unknown",
  retryAt: undefined,
  t: translator(translations, preferredLanguage(translations, new URLSearchParams(location.search).get("lang"), navigator.languages ?? [navigator.language])),
  redirect: redirectTarget(location.search, config),
  config,
  wallets: () => [],
  form: { address: "", signature: "", xpub: "", txId: "" },
  notice: undefined,
  busy: false,
  uploadProgress: undefined,
};

let stopWatching: (() => void) | undefined;
let redirectTimer: number | undefined;

/**
 * Renders the page; with `reveal`, then brings what the action produced (a refusal, a result)
 * into view and focus, so that on a phone it is never above the visible part of the page.
 */
async function render(options: { reveal?: boolean } = {}) {
  await renderPage(root, state, actions);
  if (!options.reveal) return;
  const produced = root.querySelector<HTMLElement>('[data-reveal="notice"]') ?? root.querySelector<HTMLElement>('[data-reveal="outcome"]');
  if (produced) revealMessage(produced);
}

/**
 * Takes a new view of the proof; returns whether its status changed. Once the proof is settled the
 * live updates stop (a decision an officer can reopen is not settled: the page keeps listening, so
 * it never shows a verified proof that was set aside), and after success the customer is sent back
 * to the allowed redirect target.
 */
function show(view: PublicProofView): boolean {
  const changed = state.view?.status !== view.status;
  state.view = view;
  if (view.settled) stopWatching?.();
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
    const retryAfter = error instanceof PortalApiError && error.code === "rate_limited" ? (error.retryAfterSeconds ?? 60) : undefined;
    state.notice = {
      kind: "error",
      text: refusalText(state.t, error, state.view?.asset.addressFamily),
      retryAt: retryAfter === undefined ? undefined : Date.now() + retryAfter * 1_000,
    };
  } finally {
    state.busy = false;
    await render({ reveal: true });
  }
}

/** Shows the proof as loaded, or why it could not be: unknown, rate limited (with the wait), or an outage. */
async function takeLoaded(loaded: { view: PublicProofView } | { error: unknown } | undefined) {
  if (token && loaded && "view" in loaded) {
    state.failure = undefined;
    show(loaded.view);
    if (!loaded.view.settled) {
      stopWatching?.();
      stopWatching = watchProof(token, (view) => {
        if (show(view)) void render({ reveal: true });
      });
    }
  } else if (loaded && "error" in loaded) {
    const error = loaded.error instanceof PortalApiError ? loaded.error : undefined;
    state.failure = error?.code === "unknown_proof" ? "unknown" : error?.code === "rate_limited" ? "rate_limited" : "unavailable";
    state.retryAt = Date.now() + (error?.retryAfterSeconds ?? 60) * 1_000;
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
  signWithWallet: (wallet) =>
    void submit(async () => {
      const view = state.view!;
      let signed: { address: string; signature: string };
      try {
        signed = await signWithWallet(wallet, view.signature!.message, view.address);
      } catch (error) {
        throw new PortalApiError("wallet_refused", error instanceof Error ? error.message : "The wallet refused.", 0);
      }
      return submitSignature(token!, signed);
    }),
  reload: () =>
    void (async () => {
      await takeLoaded(await loadView());
      await render({ reveal: true });
    })(),
};

const translateStaticTexts = () =>
  document.querySelectorAll<HTMLElement>("[data-text]").forEach((element) => (element.textContent = state.t(element.dataset.text!)));
for (const language of state.t.languages) {
  const option = new Option(translator(translations, language)("language.name"), language, false, language === state.t.language);
  languageSelect.append(option);
}
languageSelect.addEventListener("change", () => {
  state.t = translator(translations, languageSelect.value);
  keepLanguageInAddress(state.t.language);
  translateStaticTexts();
  void render();
});
translateStaticTexts();

await takeLoaded(await firstView);
// Wallets announce themselves in answer to the page's request; one that does so later re-renders the picker.
let rendered = false;
state.wallets = discoverWallets(() => {
  if (rendered && state.view?.status === "PENDING" && !state.busy) void render();
});
await render();
rendered = true;
// The page is ready for the customer: what the benchmark reads as "interactive".
performance.mark("portal-ready");
