import type { GatewayApi } from "./gateway-api.js";

/**
 * A screen's reads of one thing (the overview's page, the queue, a proof), each of which makes the
 * one before it pointless: a live event arriving while the page is still read asks for it again.
 * Each call returns the API for the next read and abandons the read before it, so only the newest
 * answer is waited for, and an older one cannot arrive after it and draw a staler page.
 */
export function supersedingReads(api: GatewayApi): () => GatewayApi {
  let previous: AbortController | undefined;
  return () => {
    previous?.abort();
    previous = new AbortController();
    return api.within(previous.signal);
  };
}
