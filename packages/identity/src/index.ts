export type { Identity } from "./identity.js";
export { identityFromClaims } from "./identity-from-claims.js";
export { keycloakRoleSources, parseRoleSources, type RoleSource } from "./role-source.js";
export { bearerTokenFrom } from "./bearer-token-from.js";
export { ExpiringCache } from "./expiring-cache.js";
export { identityKey } from "./identity-key.js";
export { checkTokenTimes, type TokenTimeLimits } from "./check-token-times.js";
export { defaultInternalTokenIssuer, internalTokenAlgorithm, internalTokenType, type InternalTokenClaims } from "./internal-token.js";
export { developmentKeyIdPrefix, generateInternalSigningKey, publicJwkOf, type InternalSigningKey } from "./generate-internal-signing-key.js";
export { createInternalTokenMinter, type InternalTokenMinter, type InternalTokenMinterOptions } from "./create-internal-token-minter.js";
export { createInternalTokenVerifier, type InternalTokenVerifier, type InternalTokenVerifierOptions } from "./create-internal-token-verifier.js";
export { internalTokenVerifierFromEnv } from "./internal-token-verifier-from-env.js";
export { createIdentityDoor, type IdentityDoor, type IdentityDoorOptions, type RefuseUnauthenticated } from "./create-identity-door.js";
export { insecureDevelopmentIdentityFromEnv } from "./insecure-development-identity-from-env.js";
export {
  authorizationSpecUrl,
  requiredRoleIn,
  requiresRoleDirectiveName,
  requiresRoleDirectivePath,
  requiresRoleDirectiveSdl,
} from "./requires-role-directive.js";
export { RequiredRoles } from "./required-roles.js";
export { enforceRequiredRoles, type ContextWithIdentity } from "./enforce-required-roles.js";
export { findMissingRole, type MissingRole } from "./find-missing-role.js";
