import { Worker } from "node:worker_threads";
import { ExpiringCache } from "@compliance-graph/identity";
import { OwnershipInputError, type XpubDerivation } from "../../ownership/index.js";
import type { XpubDerivationSearch } from "./xpub-derivation-search.js";
import type { XpubSearchAnswer, XpubSearchTask } from "./xpub-search-worker.js";
import { XpubSearchBusyError } from "./xpub-search-busy-error.js";

export interface XpubSearchPoolOptions {
  /** `AOPD_XPUB_WORKERS`: threads searching at once. @default 1 // one core left to the event loop on two */
  workers?: number;
  /** `AOPD_XPUB_MAX_QUEUED`: searches waiting for a thread before new ones are refused. @default 64 */
  maxQueued?: number;
  /** Searches remembered, so that one xpub and address are never searched twice. @default 10_000 */
  memoEntries?: number;
}

export interface XpubSearchPool {
  search: XpubDerivationSearch;
  /** Searches run in threads, and searches answered from memory, since the pool was created. */
  stats(): { searched: number; remembered: number };
  close(): Promise<void>;
}

interface Pending {
  task: XpubSearchTask;
  resolve: (derivation: XpubDerivation | null) => void;
  reject: (error: Error) => void;
}

const workerEntry = new URL("./xpub-search-worker-entry.mjs", import.meta.url);

/**
 * The xpub search off the request thread. Threat: the search is public (a wallet's callback or the
 * portal sends the xpub) and a miss costs up to a second of CPU; on the event loop, a few such
 * requests a second stall every GraphQL read of the replica. Here searches run in worker threads,
 * at most `maxQueued` wait (the rest are refused at once, so memory and latency stay bounded), and
 * every answer is remembered: replaying one xpub and address costs a map lookup, not a search.
 * Threads start on the first search and do not keep the process alive.
 */
export function createXpubSearchPool(options: XpubSearchPoolOptions = {}): XpubSearchPool {
  const size = Math.max(1, options.workers ?? 1);
  const maxQueued = options.maxQueued ?? 64;
  // Answers never change for the same input, so they are kept until space is needed.
  const memo = new ExpiringCache<Promise<XpubDerivation | null>>(options.memoEntries ?? 10_000);
  const idle: Worker[] = [];
  const running = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  let started = 0;
  let nextId = 0;
  let searched = 0;
  let remembered = 0;
  let closed = false;

  const spawn = () => {
    const worker = new Worker(workerEntry, { execArgv: [] });
    worker.unref();
    worker.on("message", (answer: XpubSearchAnswer) => {
      const pending = running.get(worker);
      running.delete(worker);
      if (pending && answer.id === pending.task.id) {
        if (answer.ok) pending.resolve(answer.derivation);
        else pending.reject(new OwnershipInputError(answer.code, answer.message));
      }
      idle.push(worker);
      dispatch();
    });
    // A thread that dies takes its search with it; a fresh one takes its place for the next.
    worker.on("error", (error) => {
      running.get(worker)?.reject(error);
      running.delete(worker);
    });
    worker.on("exit", () => {
      running.get(worker)?.reject(new Error("The xpub search thread stopped."));
      running.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      started -= 1;
      if (!closed) dispatch();
    });
    started += 1;
    idle.push(worker);
  };

  const dispatch = () => {
    while (queue.length > 0) {
      if (idle.length === 0 && started < size) spawn();
      const worker = idle.pop();
      if (!worker) return;
      const pending = queue.shift()!;
      running.set(worker, pending);
      searched += 1;
      worker.postMessage(pending.task);
    }
  };

  const enqueue = (input: { xpub: string; address: string; maxIndex: number }) =>
    new Promise<XpubDerivation | null>((resolve, reject) => {
      if (closed) return reject(new Error("The xpub search pool is closed."));
      if (queue.length >= maxQueued) return reject(new XpubSearchBusyError(maxQueued));
      nextId += 1;
      queue.push({ task: { id: nextId, ...input }, resolve, reject });
      dispatch();
    });

  return {
    search: (input) => {
      const key = `${input.maxIndex}\n${input.xpub}\n${input.address}`;
      const known = memo.get(key);
      if (known) {
        remembered += 1;
        return known;
      }
      const answer = enqueue(input);
      memo.set(key, answer, Number.POSITIVE_INFINITY);
      // Only answers are remembered: a refusal for a full queue or a lost thread may differ next time.
      answer.catch((error: unknown) => {
        if (!(error instanceof OwnershipInputError)) memo.delete(key);
      });
      return answer;
    },
    stats: () => ({ searched, remembered }),
    close: async () => {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error("The xpub search pool is closed."));
      await Promise.all([...idle, ...running.keys()].map((worker) => worker.terminate()));
    },
  };
}
