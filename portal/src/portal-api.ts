import type { PortalErrorBody, PortalErrorCode, PublicProofView } from "@compliance-graph/portal-contract";

/** The codes of the page's own refusals: a browser wallet that did not sign. */
export type PageErrorCode = "wallet_refused";

/** A refusal of the portal API (or of a wallet): its stable `code` is what the page translates. */
export class PortalApiError extends Error {
  constructor(
    readonly code: PortalErrorCode | PageErrorCode,
    reason: string,
    readonly httpStatus: number,
    /** For `rate_limited`: the server's `Retry-After`, the seconds until a retry can succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
  }
}

/** A whole number of seconds from a `Retry-After` header, when it holds one. */
function retryAfterOf(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : undefined;
}

const base = (token: string) => `/portal/api/proof/${encodeURIComponent(token)}`;

async function answerOf<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & Partial<PortalErrorBody>;
  if (!response.ok)
    throw new PortalApiError(
      body.error ?? "service_unavailable",
      body.reason ?? response.statusText,
      response.status,
      retryAfterOf(response.headers.get("retry-after")),
    );
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
 * Sends the file as the raw request body. XMLHttpRequest rather than `fetch`: only it reports
 * upload progress, which a customer on a phone sending a video needs to see. The server decides
 * the type from the content, so the file's own type is not sent as a claim.
 */
export function uploadMedia(token: string, file: File, onProgress: (share: number) => void): Promise<PublicProofView> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `${base(token)}/media`);
    request.setRequestHeader("content-type", "application/octet-stream");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: { proof?: PublicProofView } & Partial<PortalErrorBody> = {};
      try {
        body = JSON.parse(request.responseText) as typeof body;
      } catch {
        // Not our JSON (a proxy's error page): the status alone says what happened.
      }
      if (request.status === 200 && body.proof) resolve(body.proof);
      else
        reject(
          new PortalApiError(
            body.error ?? "service_unavailable",
            body.reason ?? request.statusText,
            request.status,
            retryAfterOf(request.getResponseHeader("retry-after")),
          ),
        );
    };
    request.onerror = () => reject(new PortalApiError("service_unavailable", "The network request failed.", 0));
    request.send(file);
  });
}

/** How long to wait before opening the stream again after the server refused it (a rate limit, an outage). */
const reopenAfterMs = 10_000;

/**
 * Calls `onProof` with the proof each time it changes (the server's event stream, fed by the
 * database's notifications). EventSource reconnects by itself after a dropped connection, but not
 * after a refusal (a 429 when the link's reads are spent, a 503): then the stream is opened again
 * after ten seconds, so a page never silently stops following its proof. The server ends the
 * stream once the proof is final.
 */
export function watchProof(token: string, onProof: (proof: PublicProofView) => void): () => void {
  let source: EventSource | undefined;
  let reopen: number | undefined;
  let stopped = false;
  const open = () => {
    source = new EventSource(`${base(token)}/events`);
    source.addEventListener("proof", (event) => onProof(JSON.parse((event as MessageEvent<string>).data) as PublicProofView));
    source.addEventListener("error", () => {
      if (!stopped && source?.readyState === EventSource.CLOSED) reopen = window.setTimeout(open, reopenAfterMs);
    });
  };
  open();
  return () => {
    stopped = true;
    window.clearTimeout(reopen);
    source?.close();
  };
}
