/**
 * Who is calling, as the gateway established it from the caller's access token and as a subgraph
 * reads it back from the internal token. `roles` holds only roles somebody declares (at the gateway:
 * `@requiresRole` in the supergraph served, and the subgraph routes' roles); whatever else an
 * identity provider grants is dropped at the gateway.
 */
export interface Identity {
  /** The token's `sub`: for a client-credentials token, the client's service account. */
  subject: string;
  /** The OAuth client the token was issued to (`azp`, or `client_id`). */
  client: string;
  /** Keycloak's `preferred_username`, when the token has one. */
  username?: string;
  roles: string[];
}
