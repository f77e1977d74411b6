import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { ForbiddenError, ServiceUnavailableError } from "@compliance-graph/errors";
import { roles, type InternalTokenMinter } from "@compliance-graph/identity";
import { BodyTooLargeError, MalformedBodyError, readJsonBody, requestIdHeader, sendGraphQLError, type Logger } from "@compliance-graph/server-kit";
import { Agent } from "undici";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import { authenticateRequest } from "../authentication/authenticate-request.js";

/** The download of proofs as XLSX, at the gateway and at aopd alike. */
export const proofDownloadPath = "/exports/proofs.xlsx";

/** The body is `{ "filter": AopdProofFilterInput }`, a few KiB at most. */
const maxBodyBytes = 65_536;

/** Headers of aopd's answer the client sees; hop-by-hop ones and anything else stay behind. */
const forwardedHeaders = ["content-type", "content-disposition", "x-content-type-options", "cache-control", "retry-after"];

export interface ProofDownloadProxyOptions {
  verifier: AccessTokenVerifier;
  mint: InternalTokenMinter;
  /** aopd's routing URL (its `/graphql`), as the supergraph or `SUBGRAPH_AOPD_URL` names it. */
  aopdUrl: () => string | undefined;
  logger: Logger;
}

export interface ProofDownloadProxy {
  route: (request: IncomingMessage, response: ServerResponse, requestId: string) => Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `POST /exports/proofs.xlsx` at the gateway: authenticates the caller as `/graphql` does, refuses
 * one without `proofs:export` before anything reaches aopd, and passes the request to aopd's route
 * of the same path with an internal token minted for aopd, as for a subgraph fetch (the caller's
 * own token and headers never travel on). aopd's answer is piped through as it comes, with
 * backpressure both ways, so the gateway holds a socket buffer of the file, never the file.
 */
export function createProofDownloadProxy(options: ProofDownloadProxyOptions): ProofDownloadProxy {
  const { verifier, mint, logger } = options;
  // An export counts its rows before the first byte, and the client sets the pace after it, so
  // neither the wait for headers nor the pause between chunks is bounded by the usual timeouts.
  const agent = new Agent({ headersTimeout: 300_000, bodyTimeout: 0 });
  const route = async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<boolean> => {
    if ((request.url ?? "").split("?")[0] !== proofDownloadPath) return false;
    if (request.method !== "POST") {
      response.setHeader("allow", "POST");
      sendGraphQLError(response, 405, { message: 'Use POST with a JSON body { "filter": AopdProofFilterInput }.', extensions: { code: "BAD_USER_INPUT" } });
      return true;
    }
    const identity = await authenticateRequest(request, response, { verifier, logger, requestId, refuse: (status, error) => sendGraphQLError(response, status, error) });
    if (!identity) return true;
    if (!identity.roles.includes(roles.proofsExport)) {
      sendGraphQLError(response, 403, new ForbiddenError(roles.proofsExport, "The download of proofs"));
      return true;
    }
    let body: unknown;
    try {
      body = await readJsonBody(request, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError || error instanceof MalformedBodyError)) throw error;
      sendGraphQLError(response, error instanceof BodyTooLargeError ? 413 : 400, { message: error.message, extensions: { code: "BAD_USER_INPUT", field: "body" } });
      return true;
    }
    const aopdUrl = options.aopdUrl();
    if (!aopdUrl) {
      sendGraphQLError(response, 503, new ServiceUnavailableError("aopd"));
      return true;
    }
    // Relative to the routing URL, so that a path prefix in front of aopd (an ingress's) is kept.
    const target = new URL(proofDownloadPath.slice(1), aopdUrl);
    const abort = new AbortController();
    // The client going away stops aopd's export too: its response is closed, its cursor with it.
    response.on("close", () => abort.abort());
    let answer;
    try {
      answer = await agent.request({
        origin: target.origin,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await mint(identity, "aopd")}`, [requestIdHeader]: requestId },
        body: body === undefined ? "" : JSON.stringify(body),
        signal: abort.signal,
      });
    } catch (error) {
      if (abort.signal.aborted) return true;
      logger.warn({ err: error, requestId }, "aopd unreachable for a proof download");
      sendGraphQLError(response, 503, new ServiceUnavailableError("aopd"));
      return true;
    }
    const headers: Record<string, string> = {};
    for (const name of forwardedHeaders) {
      const value = answer.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    response.writeHead(answer.statusCode, headers);
    try {
      await pipeline(answer.body, response);
    } catch (error) {
      // A file that broke off at aopd (or a client that left) ends the connection, never the body.
      if (!abort.signal.aborted) logger.warn({ err: error, requestId }, "proof download broke off");
      response.destroy();
    }
    return true;
  };
  return { route, close: () => agent.close() };
}
