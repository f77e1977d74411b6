import type { PublicProofView } from "@compliance-graph/portal-contract";
import type { Translator } from "./translations.js";

/** Everything one render of the page depends on. */
export interface PageState {
  token: string | undefined;
  view: PublicProofView | undefined;
  /** Why there is no view: the link names no proof, or the service could not be reached. */
  failure: "unknown" | "unavailable" | undefined;
  t: Translator;
  redirect: URL | undefined;
  /** What the customer typed, kept across renders (a language switch, a live update). */
  form: { address: string; signature: string; xpub: string; txId: string };
  /** The outcome of the last submission, shown beside the form. */
  notice: { kind: "error" | "success"; text: string } | undefined;
  busy: boolean;
  /** The share of a media upload sent so far (0 to 1), while one is under way. */
  uploadProgress: number | undefined;
}

/** What the page can ask its owner to do. */
export interface PageActions {
  submitSignature(submission: { address?: string; signature: string; xpub?: string }): void;
  submitTransaction(txId: string): void;
  uploadMedia(file: File): void;
  signWithBrowserWallet(): void;
  copy(text: string): void;
}

export const finalStatuses = new Set(["VERIFIED", "FAILED", "EXPIRED"]);

/** Whether the customer's part is done: the signature verified, the test transaction reported, or the file uploaded. */
export function isCustomerDone(view: PublicProofView): boolean {
  return view.status === "VERIFIED" || (view.kind !== "signature" && view.status === "SUBMITTED");
}
