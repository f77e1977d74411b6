import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { BadRequestError } from "@compliance-graph/errors";
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

/**
 * Parses and validates an operation that arrived over WebSocket with the same limits as one that
 * arrived over HTTP (token count at parse time, depth and aliases at validation), so the socket is
 * not a way around them. Returns the errors to send instead when the operation is refused.
 */
export function prepareOperation(
  schema: GraphQLSchema,
  payload: OperationPayload,
  /** `suggestions: false` (introspection off) cuts "Did you mean ...?" from validation errors, as over HTTP. */
  limits: QueryLimits & { suggestions?: boolean },
): PreparedOperation | GraphQLError[] {
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
    return errors.map((error) => new GraphQLError(message(error.message), { nodes: error.nodes, extensions: { ...error.extensions, code: error.extensions.code ?? "GRAPHQL_VALIDATION_FAILED" } }));
  }
  const operationName = typeof payload.operationName === "string" ? payload.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation) return [new BadRequestError(operationName ? `The document has no operation named ${operationName}.` : "The document must hold exactly one operation, or name one.")];
  return { document, operation, operationName, variables: (variables ?? undefined) as Record<string, unknown> | undefined };
}
