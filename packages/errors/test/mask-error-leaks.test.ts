import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { describe, expect, it } from "vitest";
import { maskError, maskedErrorMessage, NotFoundError, publicErrorIn, UserInputError } from "../src/index.js";

// `maskError` is what stands between a resolver's failure and the client. Each case below is an
// attacker's attempt to read what the server knows (its SQL, its hosts, its code) through an
// error: a query built to make the database fail, a thrown value of an odd type, a public code
// forged on a private error. What reaches the client must be the bare INTERNAL_SERVER_ERROR.

/** What graphql-js formats for a resolver that threw `thrown` (with a stack, as in development). */
function formattedFor(thrown: unknown): { formatted: GraphQLFormattedError; error: GraphQLError } {
  const original = thrown instanceof Error ? thrown : undefined;
  const error = new GraphQLError(original ? original.message : String(thrown), {
    path: ["aopd", "proofs"],
    originalError: original,
    extensions: { stacktrace: (original?.stack ?? "").split("\n") },
  });
  return { formatted: error.toJSON(), error };
}

const secrets = [/SELECT|INSERT|aopd_proof|duplicate key/i, /10\.0\.3\.7|db\.internal|5432/, /at .*\.ts:\d+/, /password|postgres:\/\//i];

function expectNothingLeaks(masked: GraphQLFormattedError): void {
  const text = JSON.stringify(masked);
  for (const secret of secrets) expect(text).not.toMatch(secret);
  expect(masked).toEqual({ message: maskedErrorMessage, path: ["aopd", "proofs"], extensions: { code: "INTERNAL_SERVER_ERROR" } });
}

describe("maskError against an attacker reading the server through its errors", () => {
  it("hides a driver error's SQL, host and stack", () => {
    const driverError = Object.assign(
      new Error('duplicate key value violates unique constraint "aopd_proof_pkey" on INSERT INTO aopd_proof at db.internal:5432'),
      {
        code: "23505",
        detail: "Key (id)=(1) already exists.",
      },
    );
    const { formatted, error } = formattedFor(driverError);
    expectNothingLeaks(maskError(formatted, error));
  });

  it("hides a connection string in a failure to connect", () => {
    const { formatted, error } = formattedFor(new Error("connect ECONNREFUSED 10.0.3.7:5432 (postgres://aopd:password@10.0.3.7/aopd)"));
    expectNothingLeaks(maskError(formatted, error));
  });

  it("hides values thrown that are not errors: strings, objects, numbers, null", () => {
    for (const thrown of ["SELECT * FROM aopd_proof WHERE secret", { sql: "SELECT 1", host: "db.internal" }, 5432, null, undefined]) {
      const { formatted, error } = formattedFor(thrown);
      expectNothingLeaks(maskError(formatted, error));
      expectNothingLeaks(maskError(formatted, thrown));
    }
  });

  it("does not take a public code written on a private error: the code must come from a PublicError", () => {
    const forged = new GraphQLError("relation aopd_proof does not exist", {
      path: ["aopd", "proofs"],
      extensions: { code: "NOT_FOUND", stacktrace: ["at query (proof-query.ts:12)"] },
    });
    expectNothingLeaks(maskError(forged.toJSON(), forged));
  });

  it("hides an error wrapped deeper than it looks: a private error inside a GraphQLError inside another", () => {
    const inner = new GraphQLError("SELECT failed at db.internal:5432", { originalError: new Error("password authentication failed for user postgres") });
    const outer = new GraphQLError("wrapped", { path: ["aopd", "proofs"], originalError: inner });
    expectNothingLeaks(maskError(outer.toJSON(), outer));
  });

  it("keeps the stack of a public error away from the client, and its message and code with it", () => {
    const notFound = new NotFoundError("Proof", "7");
    const error = new GraphQLError(notFound.message, {
      path: ["aopd", "proof"],
      originalError: notFound,
      extensions: { ...notFound.extensions, stacktrace: ["at resolve (aopd-resolvers.ts:40)"], exception: { stacktrace: ["x"] } },
    });
    expect(maskError(error.toJSON(), error)).toEqual({
      message: 'Proof "7" was not found.',
      path: ["aopd", "proof"],
      extensions: { code: "NOT_FOUND", what: "Proof" },
    });
  });

  it("finds a public error however deep GraphQL wrapped it, and no deeper than eight levels", () => {
    const refusal = new UserInputError("filter.is.any.status", "must be one of PENDING, VERIFIED.");
    let wrapped: unknown = refusal;
    for (let depth = 0; depth < 7; depth += 1) wrapped = { originalError: wrapped };
    expect(publicErrorIn(wrapped)).toBe(refusal);
    expect(publicErrorIn({ originalError: wrapped })).toBeUndefined();
    // A cycle ends the search instead of the process.
    const cycle: { originalError?: unknown } = {};
    cycle.originalError = cycle;
    expect(publicErrorIn(cycle)).toBeUndefined();
  });

  it("shows the client's own request errors (parse, validation) as they are, without a stack", () => {
    const parse = new GraphQLError("Syntax Error: Expected Name, found <EOF>.", { extensions: { code: "GRAPHQL_PARSE_FAILED", stacktrace: ["at parse"] } });
    expect(maskError(parse.toJSON(), parse)).toEqual({ message: "Syntax Error: Expected Name, found <EOF>.", extensions: { code: "GRAPHQL_PARSE_FAILED" } });
  });

  it("trusts a subgraph's public code only at the gateway (trustCodes), never an internal one", () => {
    const fromSubgraph: GraphQLFormattedError = {
      message: "The database is unavailable; try again shortly.",
      extensions: { code: "SERVICE_UNAVAILABLE", retryable: true },
    };
    expect(maskError(fromSubgraph, undefined, { trustCodes: true })).toEqual(fromSubgraph);
    expect(maskError(fromSubgraph, undefined)).toEqual({ message: maskedErrorMessage, extensions: { code: "INTERNAL_SERVER_ERROR" } });
    const internal: GraphQLFormattedError = { message: "at db.internal:5432", extensions: { code: "INTERNAL_SERVER_ERROR" } };
    expect(maskError(internal, undefined, { trustCodes: true })).toEqual({ message: maskedErrorMessage, extensions: { code: "INTERNAL_SERVER_ERROR" } });
  });
});
