export type { PublicAddressFormat, PublicProofKind, PublicProofStatus, PublicProofView } from "./public-proof-view.js";
