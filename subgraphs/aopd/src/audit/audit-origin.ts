import type { AuditActor } from "./audit-actor.js";

/** Who caused an action, and the request it came with (null for aopd's own jobs): what an audit entry says of its cause. */
export interface AuditOrigin {
  actor: AuditActor;
  requestId: string | null;
}
