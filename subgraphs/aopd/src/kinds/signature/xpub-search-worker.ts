import { parentPort } from "node:worker_threads";
import { findXpubDerivation, OwnershipInputError, type XpubDerivation } from "../../ownership/index.js";

/** A search the pool hands to a worker. */
export interface XpubSearchTask {
  id: number;
  xpub: string;
  address: string;
  maxIndex: number;
}

/** A worker's answer: the derivation (or null), or the client-safe refusal of unreadable input. */
export type XpubSearchAnswer =
  { id: number; ok: true; derivation: XpubDerivation | null } | { id: number; ok: false; code: OwnershipInputError["code"]; message: string };

// The search itself is `findXpubDerivation`; the worker only moves it off the request thread.
parentPort?.on("message", (task: XpubSearchTask) => {
  let answer: XpubSearchAnswer;
  try {
    answer = { id: task.id, ok: true, derivation: findXpubDerivation(task) ?? null };
  } catch (error) {
    if (!(error instanceof OwnershipInputError)) throw error;
    answer = { id: task.id, ok: false, code: error.code, message: error.message };
  }
  parentPort?.postMessage(answer);
});
