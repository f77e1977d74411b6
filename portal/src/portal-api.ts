import type { PublicProofView } from "./public-proof-view.js";

/** A refusal of the portal API: its stable `code` is what the page translates. */
export class PortalApiError extends Error {
  constructor(
    readonly code: string,
    reason: string,
    readonly httpStatus: number,
  ) {
    super(reason);
  }
}

const base = (token: string) => `/portal/api/proof/${encodeURIComponent(token)}`;

async function answerOf<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; reason?: string };
  if (!response.ok) throw new PortalApiError(body.error ?? "service_unavailable", body.reason ?? response.statusText, response.status);
  return body;
}

async function post(token: string, action: string, body: unknown): Promise<PublicProofView> {
  let response: Response;
  try {
    response = await fetch(`${base(token)}/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new PortalApiError("service_unavailable", "The network request failed.", 0);
  }
  return (await answerOf<{ proof: PublicProofView }>(response)).proof;
}

export async function fetchProofView(token: string): Promise<PublicProofView> {
  try {
    return await answerOf<PublicProofView>(await fetch(base(token), { headers: { accept: "application/json" } }));
  } catch (error) {
    if (error instanceof PortalApiError) throw error;
    throw new PortalApiError("service_unavailable", "The network request failed.", 0);
  }
}

export const submitSignature = (token: string, submission: { address?: string; signature: string; xpub?: string }) => post(token, "signature", submission);

export const submitTransaction = (token: string, txId: string) => post(token, "transaction", { txId });

/**
 * Calls `onProof` with the proof each time it changes (the server's event stream, fed by the
 * database's notifications). EventSource reconnects by itself after a dropped connection; the
 * server ends the stream once the proof is final.
 */
export function watchProof(token: string, onProof: (proof: PublicProofView) => void): () => void {
  const source = new EventSource(`${base(token)}/events`);
  source.addEventListener("proof", (event) => onProof(JSON.parse((event as MessageEvent<string>).data) as PublicProofView));
  return () => source.close();
}
