import type { PortalConfig, PublicProofView } from "@compliance-graph/portal-contract";
import type { Translator } from "./translations.js";
import type { DiscoveredWallet } from "./wallets/discovered-wallet.js";

/** Everything one render of the page depends on. */
export interface PageState {
  token: string | undefined;
  view: PublicProofView | undefined;
  /** Why there is no view: the link names no proof, too many loads in a minute, or the service could not be reached. */
  failure: "unknown" | "rate_limited" | "unavailable" | undefined;
  /** For `rate_limited`: when (ms since the epoch) loading may be tried again. */
  retryAt: number | undefined;
  t: Translator;
  redirect: URL | undefined;
  config: PortalConfig;
  /** The browser wallets found so far (they may announce themselves after the first render). */
  wallets: () => DiscoveredWallet[];
  /** What the customer typed, kept across renders (a language switch, a live update). */
  form: { address: string; signature: string; xpub: string; txId: string };
  /**
   * The outcome of the last submission, shown beside the form; `retryAt` (ms since the epoch) for
   * a rate limit, whose text counts down the seconds (`text` then holds `{seconds}`).
   */
  notice: { kind: "error" | "success"; text: string; retryAt?: number } | undefined;
  busy: boolean;
  /** The share of a media upload sent so far (0 to 1), while one is under way. */
  uploadProgress: number | undefined;
}

/** What the page can ask its owner to do. */
export interface PageActions {
  submitSignature(submission: { address?: string; signature: string; xpub?: string }): void;
  submitTransaction(txId: string): void;
  uploadMedia(file: File): void;
  signWithWallet(wallet: DiscoveredWallet): void;
  /** Loads the proof again (after a rate limit's wait). */
  reload(): void;
}

/** The statuses the page answers with an outcome rather than a form (an officer may still reopen a decision: `view.settled` says whether one can follow). */
export const outcomeStatuses = new Set(["VERIFIED", "FAILED", "EXPIRED"]);

/** Whether the customer's part is done: the signature verified (or received and left for review), the test transaction reported, or the file uploaded. */
export function isCustomerDone(view: PublicProofView): boolean {
  return view.status === "VERIFIED" || view.status === "SUBMITTED";
}
