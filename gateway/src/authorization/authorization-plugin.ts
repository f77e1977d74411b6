/**
 * Authorization at the gateway. Threat: a caller reading, or making a subgraph do work for, fields
 * its roles do not allow. The operation is checked against `@requiresRole` in the supergraph after
 * it is parsed and validated and before it is planned, so a refused operation never reaches a
 * subgraph. The subgraphs check again (`enforceRequiredRoles`), so neither layer alone is trusted.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { ForbiddenError } from "@compliance-graph/errors";
import { findMissingRole, RequiredRoles, type MissingRole } from "@compliance-graph/identity";
import type { GatewayContext } from "../gateway-context.js";

export interface SupergraphAuthorization {
  plugin: ApolloServerPlugin<GatewayContext>;
  /** Takes the role requirements of each new supergraph. */
  update(required: RequiredRoles): void;
}

export function createSupergraphAuthorization(): SupergraphAuthorization {
  // Until the first supergraph loads no operation can run anyway; an empty index refuses nothing.
  let required = new RequiredRoles();
  // Apollo Server hands the same parsed document to every request with the same query text, so
  // the verdict is kept per document, operation and set of granted roles: a repeated query is
  // not walked again. A new supergraph starts a new cache.
  let verdicts = new WeakMap<DocumentNode, Map<string, MissingRole | undefined>>();
  const missingRole = (
    schema: Parameters<typeof findMissingRole>[0],
    document: DocumentNode,
    operation: OperationDefinitionNode,
    granted: readonly string[],
  ) => {
    let byRoles = verdicts.get(document);
    if (!byRoles) verdicts.set(document, (byRoles = new Map()));
    const key = `${operation.name?.value ?? ""}\n${[...granted].sort().join(",")}`;
    if (byRoles.has(key)) return byRoles.get(key);
    const verdict = findMissingRole(schema, document, operation, required, granted);
    // Bounded: a document sees only as many keys as it has operations times distinct role sets.
    if (byRoles.size < 64) byRoles.set(key, verdict);
    return verdict;
  };
  return {
    update(next) {
      required = next;
      verdicts = new WeakMap();
    },
    plugin: {
      async requestDidStart() {
        return {
          async didResolveOperation({ schema, document, operation, contextValue }) {
            if (!operation) return;
            const missing = missingRole(schema, document, operation, contextValue.identity.roles);
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
