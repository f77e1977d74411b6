import type { BaseContext } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { ServedOperation } from "./usage/operation-usage.js";

/** The context of one gateway request: the authenticated caller and the request id. */
export interface GatewayContext extends BaseContext {
  identity: Identity;
  requestId: string;
  logger: Logger;
  /** Told the operation usage recording counted, so that a request joining this one's execution is counted too (handle-graphql.ts). */
  usageRecorded?: (served: ServedOperation) => void;
}
