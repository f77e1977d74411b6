export type { PublicAddressFormat, PublicProofKind, PublicProofStatus, PublicProofView } from "./public-proof-view.js";
export { portalErrorStatus, type PortalErrorBody, type PortalErrorCode } from "./portal-error.js";
export type { PortalConfig, PortalContact } from "./portal-config.js";
