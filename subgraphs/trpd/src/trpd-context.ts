import type { BaseContext } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";

export interface TrpdContext extends BaseContext {
  identity: Identity;
  requestId: string;
  logger: Logger;
}
