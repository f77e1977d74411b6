import type { IncomingMessage, ServerResponse } from "node:http";
import type { GraphQLSchema } from "graphql";
import type { CompiledExecution } from "./compiled-execution-gateway.js";
import { recordGraphQLOperation } from "./metrics/graphql-metrics-plugin.js";
import type { ServiceMetrics } from "./metrics/service-metrics.js";
import { resolvedOperation, type OperationCheck } from "./operation-check.js";

export interface SeenOperationLaneOptions {
  schema: GraphQLSchema;
  execution: CompiledExecution;
  /** The checks Apollo Server's plugins run on a resolved operation (input values, cost). */
  checks: readonly OperationCheck[];
  metrics: ServiceMetrics;
}

/** What the lane needs of a request, and Apollo Server's way for everything else. */
export interface LaneRequest<TContext> {
  request: IncomingMessage;
  response: ServerResponse;
  body: unknown;
  createContext: () => Promise<TContext>;
  /** Answers through Apollo Server's pipeline with this context. */
  throughApollo: (context: () => Promise<TContext>) => Promise<void>;
}

/** The media types Apollo Server answers `application/json; charset=utf-8` for: none named, anything, or JSON itself. */
const acceptsJson = new Set([undefined, "*/*", "application/json"]);

/**
 * The compiled lane: a query Apollo Server has already parsed, validated and run compiled (the
 * same text and operation name) is answered again without Apollo Server's request pipeline, which
 * on a page of proofs cost about as much as running the page. The lane does only what that
 * pipeline would do for such a request: the per-request checks of the plugins (input values,
 * cost), the variables' coercion, the compiled execution, the metrics, and a success written as
 * Apollo writes it (status 200, `application/json; charset=utf-8`, the JSON and a line feed).
 *
 * Anything else goes through Apollo Server, so that every refusal and error has exactly Apollo's
 * form: a request of another shape, a check that refuses, variables that do not coerce. A result
 * with errors is handed to Apollo Server as it is (`answerNextWith`), so the operation is not run
 * twice; Apollo then formats, masks and counts the errors as it always does.
 *
 * Not used while tracing is on: the pipeline's spans are part of a trace.
 */
export function seenOperationLane<TContext extends object>(options: SeenOperationLaneOptions) {
  const { schema, execution, checks, metrics } = options;
  return async ({ request, response, body, createContext, throughApollo }: LaneRequest<TContext>): Promise<void> => {
    const started = performance.now();
    if (!isLaneRequest(request, body)) return throughApollo(createContext);
    const seen = execution.seen(body.query, body.operationName ?? undefined);
    if (!seen) return throughApollo(createContext);
    // One resolved operation for the checks and the run, so the variables are coerced once.
    const resolved = resolvedOperation(schema, seen.document, seen.operation, body.variables ?? {});
    try {
      for (const check of checks) check(resolved);
    } catch {
      return throughApollo(createContext);
    }
    const context = await createContext();
    const sameContext = async () => context;
    const result = await execution.run(seen, context, resolved);
    if (!result) return throughApollo(sameContext);
    if (result.errors) {
      execution.answerNextWith(context, result);
      return throughApollo(sameContext);
    }
    response.statusCode = 200;
    response.setHeader("content-type", "application/json; charset=utf-8");
    response.end(`${JSON.stringify({ data: result.data })}\n`);
    recordGraphQLOperation(metrics, { name: seen.operation.name?.value, type: seen.operation.operation, firstError: undefined }, started);
    metrics.graphqlCompiledLaneAnswers.inc();
  };
}

interface LaneBody {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** A POST of JSON, answered as JSON, whose body holds a query and nothing Apollo Server would treat specially. */
function isLaneRequest(request: IncomingMessage, body: unknown): body is LaneBody {
  if (request.method !== "POST" || !acceptsJson.has(request.headers.accept)) return false;
  if (request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() !== "application/json") return false;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const { query, operationName, variables, extensions, ...rest } = body as Record<string, unknown>;
  if (typeof query !== "string" || Object.keys(rest).length > 0) return false;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return false;
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) return false;
  return extensions === undefined || (typeof extensions === "object" && extensions !== null && Object.keys(extensions).length === 0);
}
