export { createLogger, type Logger } from "./logger.js";
export { readJsonBody, BodyTooLargeError, MalformedBodyError } from "./read-json-body.js";
export { aliasLimitRule, depthLimitRule, defaultQueryLimits, type QueryLimits } from "./query-limits.js";
export { requestIdFrom, requestIdHeader } from "./request-id.js";
export { sendJson } from "./send-json.js";
export { startSubgraphServer, type RunningSubgraphServer, type SubgraphServerOptions } from "./start-subgraph-server.js";
export { onShutdownSignal } from "./on-shutdown-signal.js";
export { forwardPathPrefix } from "./forward-path-prefix.js";
