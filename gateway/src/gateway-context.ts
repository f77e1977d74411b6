import type { BaseContext } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";

/** The context of one gateway request: the authenticated caller and the request id. */
export interface GatewayContext extends BaseContext {
  identity: Identity;
  requestId: string;
  logger: Logger;
  /**
   * An object of this HTTP request alone, which Apollo Server's copies of the context keep: what is
   * recorded during the request is found by it afterwards (usage recording, for a request that joined
   * this one's execution).
   */
  requestKey?: object;
}
