/**
 * Authorization at the gateway. Threat: a caller reading, or making a subgraph do work for, fields
 * its roles do not allow. The operation is checked against `@requiresRole` in the supergraph after
 * it is parsed and validated and before it is planned, so a refused operation never reaches a
 * subgraph. The subgraphs check again (`enforceRequiredRoles`), so neither layer alone is trusted.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, parse } from "graphql";
import { ForbiddenError } from "@compliance-graph/errors";
import { findMissingRole, RequiredRoles } from "@compliance-graph/identity";
import type { GatewayContext } from "../gateway-context.js";

export interface SupergraphAuthorization {
  plugin: ApolloServerPlugin<GatewayContext>;
  /** Re-reads the role requirements; call with each new supergraph SDL. */
  update(supergraphSdl: string): void;
}

export function createSupergraphAuthorization(): SupergraphAuthorization {
  // Until the first supergraph loads no operation can run anyway; an empty index refuses nothing.
  let required = new RequiredRoles();
  return {
    update(supergraphSdl) {
      required = RequiredRoles.fromDocument(parse(supergraphSdl));
    },
    plugin: {
      async requestDidStart() {
        return {
          async didResolveOperation({ schema, document, operation, contextValue }) {
            if (!operation) return;
            const missing = findMissingRole(schema, document, operation, required, contextValue.identity.roles);
            if (!missing) return;
            const forbidden = new ForbiddenError(missing.role, missing.coordinate);
            // The whole request is refused, like a 401, so it is answered with HTTP 403 (Apollo
            // Server reads `extensions.http` and leaves it out of the response).
            throw new GraphQLError(forbidden.message, { originalError: forbidden, extensions: { ...forbidden.extensions, http: { status: 403 } } });
          },
        };
      },
    },
  };
}
