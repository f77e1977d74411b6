import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { BadRequestError, ForbiddenError, InvalidVariableError } from "@compliance-graph/errors";
import { findMissingRole, type RequiredRoles } from "@compliance-graph/identity";
import { getVariableValues } from "graphql";
import type { OperationCheck } from "./operation-check.js";
import { aliasLimitRule, depthLimitRule, type QueryLimits } from "./query-limits.js";
import { withoutSuggestions } from "./without-suggestions.js";

/** What a WebSocket `subscribe`/`start` message carries. */
export interface OperationPayload {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** What an operation that arrives over WebSocket is checked against, besides the schema. */
export interface OperationChecks {
  /** `suggestions: false` (introspection off) cuts "Did you mean ...?" from validation errors, as over HTTP. */
  limits: QueryLimits & { suggestions?: boolean };
  /** The refusal of anything but a subscription (the socket serves nothing else). */
  onlySubscriptions: string;
  /** The roles its fields need (`@requiresRole`) and those the caller holds. */
  roles: { required: RequiredRoles; granted: readonly string[] };
  /** The very checks the HTTP lane runs as plugins (`inputValuesCheck`, `costLimitCheck`): the same functions, the same refusals. */
  checks: readonly OperationCheck[];
}

/**
 * The WebSocket lane's checks of an operation, in the HTTP lane's order, so the socket is not a way
 * around any of them: parse with the token limit, validate with the depth and alias limits, only a
 * subscription, the roles, the operation checks (input values, cost), the variables coerced to
 * their types. Returns the errors to send instead when the operation is refused, as the HTTP lane
 * answers them (without the HTTP status an HTTP refusal carries for Apollo Server).
 */
export function prepareOperation(schema: GraphQLSchema, payload: OperationPayload, checks: OperationChecks): PreparedOperation | GraphQLError[] {
  const { limits } = checks;
  if (typeof payload.query !== "string") return [new BadRequestError("The message must carry the operation as a string in `query`.")];
  if (payload.operationName !== undefined && payload.operationName !== null && typeof payload.operationName !== "string") {
    return [new BadRequestError("`operationName` must be a string.")];
  }
  const variables = payload.variables ?? undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) {
    return [new BadRequestError("`variables` must be an object.")];
  }
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens: limits.maxTokens });
  } catch (error) {
    return [new GraphQLError((error as Error).message, { extensions: { code: "GRAPHQL_PARSE_FAILED" } })];
  }
  const errors = validate(schema, document, [...specifiedRules, depthLimitRule(limits.maxDepth), aliasLimitRule(limits.maxAliases)]);
  if (errors.length > 0) {
    const message = (text: string) => (limits.suggestions === false ? withoutSuggestions(text) : text);
    return errors.map(
      (error) =>
        new GraphQLError(message(error.message), {
          nodes: error.nodes,
          extensions: { ...error.extensions, code: error.extensions.code ?? "GRAPHQL_VALIDATION_FAILED" },
        }),
    );
  }
  const operationName = typeof payload.operationName === "string" ? payload.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation)
    return [
      new BadRequestError(
        operationName ? `The document has no operation named ${operationName}.` : "The document must hold exactly one operation, or name one.",
      ),
    ];
  if (operation.operation !== "subscription") return [new BadRequestError(checks.onlySubscriptions)];
  const missing = findMissingRole(schema, document, operation, checks.roles.required, checks.roles.granted);
  if (missing) return [new ForbiddenError(missing.role, missing.coordinate)];
  const sent = (variables ?? {}) as Record<string, unknown>;
  let coerced: ReturnType<typeof getVariableValues> | undefined;
  const resolved = {
    schema,
    document,
    operation,
    variables: sent,
    coercedVariables: () => (coerced ??= getVariableValues(schema, operation.variableDefinitions ?? [], sent)),
  };
  try {
    for (const check of checks.checks) check(resolved);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return [withoutHttpStatus(error)];
  }
  const coercion = resolved.coercedVariables().errors;
  if (coercion) return coercion.map((error) => new InvalidVariableError(error.message, error.nodes));
  return { document, operation, operationName, variables: (variables ?? undefined) as Record<string, unknown> | undefined };
}

/** A check's refusal as a socket sends it: Apollo Server reads `extensions.http` and leaves it out of an HTTP answer; so does this. */
function withoutHttpStatus(error: GraphQLError): GraphQLError {
  if (error.extensions.http === undefined) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { nodes: error.nodes, originalError: error.originalError, extensions });
}
