import { actorOf } from "../audit/audit-actor.js";
import type { AuditOrigin } from "../audit/audit-origin.js";
import type { AopdContext } from "./aopd-context.js";

/** The caller of a GraphQL operation, as the audit trail names them. */
export function originOf(context: Pick<AopdContext, "identity" | "requestId">): AuditOrigin {
  return { actor: actorOf(context.identity), requestId: context.requestId };
}
