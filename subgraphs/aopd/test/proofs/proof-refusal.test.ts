import { maskError, PublicError } from "@compliance-graph/errors";
import { describe, expect, it } from "vitest";
import { BusyRefusal, ProofStateRefusal, SubmissionRefusal, UnknownProofRefusal, type ProofRefusal } from "../../src/proofs/proof-refusal.js";
import { publicRouteErrorOf } from "../../src/http/public-route-error.js";

// One refusal, two edges: what a GraphQL client and what a public route's caller receive for the
// very object the domain threw, without either edge reading its message.
describe("a proof refusal at each edge", () => {
  const cases: [
    ProofRefusal,
    { graphql: Record<string, unknown>; route: { code: string; httpStatus: number; proofStatus?: string; retryAfterSeconds?: number } },
  ][] = [
    [
      new ProofStateRefusal("wrong_status", "The proof is VERIFIED; it can be finalized only when PENDING.", "VERIFIED"),
      {
        graphql: { message: "The proof is VERIFIED; it can be finalized only when PENDING.", extensions: { status: "VERIFIED", code: "CONFLICT" } },
        route: { code: "not_pending", httpStatus: 409, proofStatus: "VERIFIED" },
      },
    ],
    [
      new ProofStateRefusal("expired", "The proof expired at 2026-01-01T00:00:00.000Z; it can no longer be finalized.", "PENDING"),
      {
        graphql: {
          message: "The proof expired at 2026-01-01T00:00:00.000Z; it can no longer be finalized.",
          extensions: { status: "PENDING", code: "CONFLICT" },
        },
        route: { code: "expired", httpStatus: 409 },
      },
    ],
    [
      new ProofStateRefusal("wrong_kind", "names a media proof; only satoshi proofs can be finalized.", undefined, { field: "id" }),
      {
        graphql: { message: "id: names a media proof; only satoshi proofs can be finalized.", extensions: { field: "id", code: "BAD_USER_INPUT" } },
        route: { code: "wrong_kind", httpStatus: 400 },
      },
    ],
    [
      new SubmissionRefusal("invalid_tx_id", "is not a transaction id of Bitcoin: expected 64 hexadecimal characters.", { field: "txId" }),
      {
        graphql: {
          message: "txId: is not a transaction id of Bitcoin: expected 64 hexadecimal characters.",
          extensions: { field: "txId", code: "BAD_USER_INPUT" },
        },
        route: { code: "invalid_tx_id", httpStatus: 400 },
      },
    ],
    [
      UnknownProofRefusal.byId("nope"),
      {
        graphql: { message: 'The proof "nope" was not found.', extensions: { what: "The proof", code: "NOT_FOUND" } },
        route: { code: "unknown_proof", httpStatus: 404 },
      },
    ],
    [
      new BusyRefusal("Too many xpub checks are waiting; send the same submission again in a few seconds.", 5),
      {
        graphql: {
          message: "Too many xpub checks are waiting; send the same submission again in a few seconds.",
          extensions: { retryable: true, code: "SERVICE_UNAVAILABLE" },
        },
        route: { code: "service_unavailable", httpStatus: 503, retryAfterSeconds: 5 },
      },
    ],
  ];

  it("is a member of the one error family, answered by GraphQL through its public code", () => {
    for (const [refusal, { graphql }] of cases) {
      expect(refusal).toBeInstanceOf(PublicError);
      expect(maskError(refusal.toJSON(), refusal)).toEqual(graphql);
    }
  });

  it("is answered by a public route through its own code, with the status of that code", () => {
    for (const [refusal, { route }] of cases) {
      const answer = publicRouteErrorOf(refusal);
      expect({ code: answer?.code, httpStatus: answer?.httpStatus, proofStatus: answer?.proofStatus, retryAfterSeconds: answer?.retryAfterSeconds }).toEqual({
        proofStatus: undefined,
        retryAfterSeconds: undefined,
        ...route,
      });
      expect(answer?.message).toBe(refusal.message);
    }
  });
});
