// The few parts of oidc-provider's API the development identity provider uses. oidc-provider ships
// no types of its own; @types/oidc-provider would replace this file.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface KoaContextWithOIDC {
    oidc: { client?: { clientId: string } };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
