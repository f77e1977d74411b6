import type { BaseContext } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";

/** The context of one gateway request: the authenticated caller and the request id. */
export interface GatewayContext extends BaseContext {
  identity: Identity;
  requestId: string;
  logger: Logger;
}
