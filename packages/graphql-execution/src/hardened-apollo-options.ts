import type { GraphQLFormattedError } from "graphql";
import { isConnectionFailure, isStatementTimeout, maskError, publicErrorIn, ServiceUnavailableError } from "@compliance-graph/errors";
import type { Logger, OutageLog } from "@compliance-graph/process-shell";
import { aliasLimitRule, depthLimitRule, type QueryLimits } from "./query-limits.js";
import { withoutSuggestions } from "./without-suggestions.js";

/**
 * The Apollo Server settings every deployable shares, gateway and subgraphs alike: CSRF
 * prevention, no stack traces, the query limits, and errors masked before they leave (anything
 * unexpected is logged here and reaches the client as a bare INTERNAL_SERVER_ERROR).
 * `trustCodes` is for the gateway, which passes on the public codes its subgraphs already masked.
 * Without introspection, "Did you mean ...?" suggestions are cut from every message as well.
 */
export function hardenedApolloOptions(options: {
  introspection: boolean;
  limits: QueryLimits;
  logger: Logger;
  trustCodes?: boolean;
  /**
   * The dependency whose unreachability fails a request (a subgraph's database): such a failure
   * reaches the client as SERVICE_UNAVAILABLE naming it, and is logged once per outage. A
   * statement the database cancelled after its `statement_timeout` is SERVICE_UNAVAILABLE too, with
   * one warning line per request and no stack (the database answered: no outage).
   */
  dependency?: { part: string; outages: OutageLog };
}) {
  const { limits, logger } = options;
  return {
    introspection: options.introspection,
    // The deployable's own handler stops it (on-shutdown-signal.ts); Apollo's would re-send the
    // signal after its own stop, which that handler would take for an operator's "force".
    stopOnTerminationSignals: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    validationRules: [depthLimitRule(limits.maxDepth), aliasLimitRule(limits.maxAliases)],
    parseOptions: { maxTokens: limits.maxTokens },
    formatError: (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
      const { dependency } = options;
      if (dependency && !publicErrorIn(error) && (isConnectionFailure(error) || isStatementTimeout(error))) {
        if (isConnectionFailure(error)) dependency.outages.down(dependency.part, error);
        else logger.warn({ part: dependency.part, path: formatted.path }, `a statement of the ${dependency.part} ran past its timeout`);
        const unavailable = new ServiceUnavailableError(dependency.part);
        return { message: unavailable.message, ...(formatted.path ? { path: formatted.path } : {}), extensions: unavailable.extensions };
      }
      const shown = options.introspection ? formatted : { ...formatted, message: withoutSuggestions(formatted.message) };
      const masked = maskError(shown, error, { trustCodes: options.trustCodes ?? false });
      if (masked !== shown && masked.extensions?.code === "INTERNAL_SERVER_ERROR") logger.error({ err: error }, "unexpected error");
      return masked;
    },
  };
}
