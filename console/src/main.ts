import "./style.css";
import { loadConsoleConfig } from "./console-config.js";
import { proofKindFields, type ConsoleContext } from "./console-context.js";
import { h } from "@compliance-graph/web-dom";
import { gatewayApi } from "./gateway-api.js";
import { liveProofs } from "./live-proofs.js";
import { applyOperatorTheme, operatorLogoUrl, operatorThemeFields } from "./operator-theme.js";
import { startOfficerSession } from "./officer-session.js";
import { assetFields, type Asset, type ProofKind } from "./proof-fields.js";
import { graphql } from "./graphql/graphql.js";
import { proofDetail } from "./screens/proof-detail.js";
import { proofsOverview } from "./screens/proofs-overview.js";
import { requestProof } from "./screens/request-proof.js";
import { reviewQueue } from "./screens/review-queue.js";
import { currentLanguage, formatNumber, languages, setLanguage, t } from "./translations.js";
import { restoreDrafts } from "./form-drafts.js";

const app = document.getElementById("app")!;

/** Read once at start: the assets, the proof kinds (which an officer decides, their reason codes, four eyes) and the operator's look. */
const startQuery = graphql(
  `
    query ConsoleStart {
      aopd {
        configuration {
          supportedAssets {
            ...SupportedAssetFields
          }
          proofKinds {
            ...ConsoleProofKindFields
          }
        }
        ...OperatorThemeFields
      }
    }
  `,
  [assetFields, proofKindFields, operatorThemeFields],
);

/** The review queue's count in the navigation: the SUBMITTED proofs. */
const queueCountQuery = graphql(`
  query QueueCount {
    aopd {
      proofsCount(filter: { is: { any: { status: [SUBMITTED] } } })
    }
  }
`);

async function start(): Promise<void> {
  setLanguage(currentLanguage());
  const config = await loadConsoleConfig();
  const session = await startOfficerSession(config);
  if (!session) return;
  const api = gatewayApi(session);
  const connection = h("span", { role: "status", class: "connection" });
  // Kept, so that a change of language says it again in the new one.
  let connected = false;
  const showConnection = () => (connection.textContent = connected ? t("live.connected") : t("live.reconnecting"));
  const live = liveProofs(session, (now) => {
    connected = now;
    showConnection();
  });
  const { aopd } = await api.graphql(startQuery);
  applyOperatorTheme(document.documentElement, aopd.theme);
  const logo = operatorLogoUrl(aopd.logo);
  const assets = new Map<string, Asset>(aopd.configuration?.supportedAssets.map((asset) => [asset.asset, asset]));

  let cleanups: (() => void)[] = [];
  const main = h("main", { id: "main" });
  const queueCount = h("span", { class: "count" });
  const context: ConsoleContext = {
    config,
    session,
    api,
    live,
    assets,
    // The API names kinds as strings; the console knows the ones it has screens for (ProofKind), and a kind it does not know is never looked up.
    proofKinds: new Map(aopd.configuration?.proofKinds.map(({ name, ...kind }) => [name as ProofKind, kind])),
    navigate(path, replace = false) {
      if (replace) history.replaceState(null, "", path);
      else history.pushState(null, "", path);
      void route();
    },
    onLeave: (cleanup) => cleanups.push(cleanup),
  };

  const refreshQueueCount = async () => {
    const data = await api.graphql(queueCountQuery);
    queueCount.textContent = ` (${formatNumber(data.aopd.proofsCount)})`;
  };
  live.listen(() => void refreshQueueCount().catch(() => undefined));

  /**
   * The navigation token: each screen opened gets the next number, and only the screen of the
   * current number may still change the page. A screen still loading when another is opened (a slow
   * detail, then a click on Proofs) has its reads aborted; whatever of it still finishes (an action
   * the officer sent, which is never aborted) finishes into a root of its own that is no longer on
   * the page, instead of drawing over the newer screen; it cannot navigate, and what it registers to
   * clean up (a live listener) is cleaned up at once rather than left to re-draw an old screen.
   */
  let opened = 0;
  const route = async () => {
    for (const cleanup of cleanups) cleanup();
    // Leaving a screen abandons its reads still in flight (the slow detail's query): aborted, not
    // only their answers dropped, so neither the browser nor the gateway works on for nothing.
    const leaving = new AbortController();
    cleanups = [() => leaving.abort()];
    const token = ++opened;
    const current = () => token === opened;
    const root = h("div", { class: "screen" });
    main.replaceChildren(root);
    const screen: ConsoleContext = {
      ...context,
      api: api.within(leaving.signal),
      navigate: (path, replace) => (current() ? context.navigate(path, replace) : undefined),
      onLeave: (cleanup) => (current() ? void cleanups.push(cleanup) : cleanup()),
    };
    const path = location.pathname.replace(/^\/console\/?/, "");
    for (const link of nav.querySelectorAll("a")) link.toggleAttribute("aria-current", link.getAttribute("href") === location.pathname);
    if (path === "review") await reviewQueue(screen, root);
    else if (path.startsWith("proofs/")) await proofDetail(screen, root, decodeURIComponent(path.slice("proofs/".length)));
    else if (path === "request" && session.roles.has("proofs:write")) requestProof(screen, root);
    else await proofsOverview(screen, root);
    if (!current()) return;
    restoreDrafts(main);
    main.focus();
  };

  const languageSelect = h(
    "select",
    { id: "language" },
    ...languages.map((code) => h("option", { value: code, selected: code === currentLanguage() }, t(`language.${code}`))),
  ) as HTMLSelectElement;
  languageSelect.addEventListener("change", () => {
    setLanguage(languageSelect.value);
    renderShell();
    void route();
  });
  const nav = h("nav", {});
  const renderShell = () => {
    nav.replaceChildren(
      h(
        "ul",
        {},
        h("li", {}, h("a", { href: "/console/", "data-route": "" }, t("nav.proofs"))),
        h("li", {}, h("a", { href: "/console/review", "data-route": "" }, t("nav.review"), queueCount)),
        session.roles.has("proofs:write") ? h("li", {}, h("a", { href: "/console/request", "data-route": "" }, t("nav.request"))) : null,
      ),
    );
    nav.setAttribute("aria-label", t("nav.label"));
    if (connection.textContent) showConnection();
    document.title = t("app.title");
    app.replaceChildren(
      h(
        "header",
        { class: "bar" },
        h("img", { class: "logo", src: logo, alt: "" }),
        h("strong", {}, t("app.title")),
        nav,
        h(
          "div",
          { class: "account" },
          h("label", { for: "language", class: "language" }, t("language.label")),
          languageSelect,
          h("span", { class: "user" }, t("app.signedInAs", { name: session.name })),
          h("button", { type: "button", onclick: () => void session.signOut() }, t("app.signOut")),
          connection,
        ),
      ),
      main,
    );
    main.tabIndex = -1;
  };
  renderShell();
  // Links marked data-route change the screen without a reload; the back button works through popstate.
  document.addEventListener("click", (event) => {
    const link = (event.target as Element).closest?.("a[data-route]");
    if (!link || (event as MouseEvent).ctrlKey || (event as MouseEvent).metaKey) return;
    event.preventDefault();
    context.navigate(link.getAttribute("href") ?? "/console/");
  });
  window.addEventListener("popstate", () => void route());
  void refreshQueueCount().catch(() => undefined);
  await route();
}

start().catch((error: unknown) => {
  app.replaceChildren(h("p", { role: "alert" }, `${t("app.startFailed")} ${error instanceof Error ? error.message : String(error)}`));
});
