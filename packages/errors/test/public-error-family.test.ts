import { describe, expect, it } from "vitest";
import type { PublicError } from "../src/index.js";
import { parse } from "graphql";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  IdentityProviderUnavailableError,
  InternalServerError,
  InvalidVariableError,
  LimitExceededError,
  maskError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  SupergraphReloadedError,
  UnauthenticatedError,
  UserInputError,
} from "../src/index.js";

describe("the public error family", () => {
  it("gives each member its stable code, a message for the client and the extensions a client switches on", () => {
    const cases: [PublicError, Record<string, unknown>, string][] = [
      [
        new UserInputError("filter.is.any.status", "must be one of PENDING, VERIFIED."),
        { code: "BAD_USER_INPUT", field: "filter.is.any.status" },
        "filter.is.any.status: must be one of PENDING, VERIFIED.",
      ],
      [new NotFoundError("Proof", "7"), { code: "NOT_FOUND", what: "Proof" }, 'Proof "7" was not found.'],
      [new LimitExceededError("maxRows", 10, "At most 10 rows."), { code: "LIMIT_EXCEEDED", limit: "maxRows", allowed: 10 }, "At most 10 rows."],
      [
        new RateLimitedError("clientRequests", 600, 17, "Retry after 17 s."),
        { code: "RATE_LIMITED", quota: "clientRequests", allowed: 600, retryAfterSeconds: 17 },
        "Retry after 17 s.",
      ],
      [new UnauthenticatedError(), { code: "UNAUTHENTICATED" }, "A valid bearer token is required."],
      [
        new ForbiddenError("proofs:export", "Query.proofsAsXlsx"),
        { code: "FORBIDDEN", requiredRole: "proofs:export" },
        'Query.proofsAsXlsx requires the role "proofs:export".',
      ],
      [new ConflictError("The proof is settled."), { code: "CONFLICT" }, "The proof is settled."],
      [new ServiceUnavailableError("database"), { code: "SERVICE_UNAVAILABLE", retryable: true }, "The database is unavailable; try again shortly."],
      [
        new IdentityProviderUnavailableError("fetch failed"),
        { code: "SERVICE_UNAVAILABLE", retryable: true },
        "The identity provider is unavailable; try again shortly.",
      ],
      [
        new BadRequestError("This socket serves subscriptions; send queries and mutations to POST /graphql."),
        { code: "BAD_REQUEST" },
        "This socket serves subscriptions; send queries and mutations to POST /graphql.",
      ],
      [
        new InvalidVariableError('Variable "$first" got invalid value "x"; Int cannot represent non-integer value: "x"'),
        { code: "BAD_USER_INPUT" },
        'Variable "$first" got invalid value "x"; Int cannot represent non-integer value: "x"',
      ],
      [
        new SupergraphReloadedError(),
        { code: "SERVICE_UNAVAILABLE", reason: "SUPERGRAPH_RELOADED" },
        "The gateway loaded a new version of the supergraph; subscribe again.",
      ],
      [new InternalServerError(), { code: "INTERNAL_SERVER_ERROR" }, "Unexpected error."],
    ];
    for (const [error, extensions, message] of cases) {
      expect({ name: error.name, code: error.code, message: error.message, extensions: error.extensions }).toEqual({
        name: error.constructor.name,
        code: extensions.code,
        message,
        extensions,
      });
      expect(maskError(error.toJSON(), error)).toEqual({ message, extensions });
    }
  });
});

describe("members that carry more than a message", () => {
  it("points an invalid variable at its definition in the operation", () => {
    const definition = parse("subscription ($first: Int) { a(first: $first) }", { noLocation: false }).definitions[0];
    const variable = definition?.kind === "OperationDefinition" ? definition.variableDefinitions?.[0] : undefined;
    const error = new InvalidVariableError('Variable "$first" got invalid value "x".', variable ? [variable] : []);
    expect(error.toJSON()).toEqual({
      message: 'Variable "$first" got invalid value "x".',
      locations: [{ line: 1, column: 15 }],
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("keeps why the identity provider failed for the logs, out of what the client sees", () => {
    const error = new IdentityProviderUnavailableError(
      "request to https://idp.internal:8443/realms/x/protocol/openid-connect/certs failed, reason: ECONNREFUSED",
    );
    expect(error.detail).toContain("idp.internal");
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(JSON.stringify(maskError(error.toJSON(), error))).not.toContain("idp.internal");
  });
});
