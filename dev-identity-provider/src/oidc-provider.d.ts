// The few parts of oidc-provider's API the development identity provider uses. oidc-provider ships
// no types of its own; @types/oidc-provider would replace this file.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      params?: Record<string, unknown>;
      result?: { consent?: { grantId?: string } };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    };
    body?: unknown;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface Interaction {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
  }

  export interface OidcClient {
    readonly clientId: string;
    redirectUriAllowed(value: string): boolean;
    postLogoutRedirectUriAllowed(value: string): boolean;
  }

  interface Token {
    resourceServer?: unknown;
    readonly expiration: number;
    readonly scope?: string;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    registerGrantType(name: string, handler: (ctx: KoaContextWithOIDC) => Promise<void>, parameters: string[]): void;
    readonly ClientCredentials: new (fields: { client: unknown; scope?: string }) => Token;
    readonly ResourceServer: new (identifier: string, info: Record<string, unknown>) => unknown;
    readonly Grant: { new (fields: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    readonly Client: { prototype: OidcClient };
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export const errors: {
    InvalidGrant: new (description: string) => Error;
    UnauthorizedClient: new (description: string) => Error;
  };
}
