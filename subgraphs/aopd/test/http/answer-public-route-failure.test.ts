import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@compliance-graph/process-shell";
import { BusyRefusal, ProofStateRefusal, SubmissionRefusal, UnknownProofRefusal } from "../../src/proofs/proof-refusal.js";
import { answerPublicRouteFailure } from "../../src/http/answer-public-route-failure.js";

// The proof domain refuses with its own classes; the HTTP edge alone turns them into a status and
// the routes' one body shape. Each answer here is what a wallet or the portal page receives.
describe("a public route answering the proof domain's refusals", () => {
  let server: Server;
  let base: string;
  const thrown = new Map<string, unknown>([
    ["/submission", new SubmissionRefusal("signature_mismatch", "The signature was not made by this address's key.")],
    ["/too-large", new SubmissionRefusal("media_too_large", "A file may have at most 10 bytes; this one announces 11.")],
    ["/unknown", new UnknownProofRefusal("This link does not belong to a proof.")],
    ["/settled", new ProofStateRefusal("not_pending", "The proof is VERIFIED; only a pending proof accepts a signature.", "VERIFIED")],
    ["/busy", new BusyRefusal("4 uploads are in progress; try again in a moment.", 5)],
    ["/fault", new Error('duplicate key value violates unique constraint "aopd_proof_pkey" at db.internal:5432')],
  ]);
  beforeAll(async () => {
    const logger = createLogger("aopd", "silent");
    server = createServer((request, response) => answerPublicRouteFailure(response, thrown.get(request.url ?? ""), logger, "test"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const answer = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  };

  it("answers each refusal with its code, its sentence and the status of its code", async () => {
    expect(await answer("/submission")).toEqual({
      status: 400,
      retryAfter: null,
      body: { error: "signature_mismatch", reason: "The signature was not made by this address's key." },
    });
    expect(await answer("/too-large")).toEqual({
      status: 413,
      retryAfter: null,
      body: { error: "media_too_large", reason: "A file may have at most 10 bytes; this one announces 11." },
    });
    expect(await answer("/unknown")).toEqual({
      status: 404,
      retryAfter: null,
      body: { error: "unknown_proof", reason: "This link does not belong to a proof." },
    });
  });

  it("adds the proof's status to not_pending and Retry-After to a busy replica's refusal", async () => {
    expect(await answer("/settled")).toEqual({
      status: 409,
      retryAfter: null,
      body: { error: "not_pending", reason: "The proof is VERIFIED; only a pending proof accepts a signature.", status: "VERIFIED" },
    });
    expect(await answer("/busy")).toEqual({
      status: 503,
      retryAfter: "5",
      body: { error: "service_unavailable", reason: "4 uploads are in progress; try again in a moment." },
    });
  });

  it("answers anything that is not a refusal as service_unavailable, without its message", async () => {
    expect(await answer("/fault")).toEqual({
      status: 503,
      retryAfter: null,
      body: { error: "service_unavailable", reason: "The service cannot answer right now; try again in a moment." },
    });
  });
});
