import { createHash } from "node:crypto";
import type { ApolloServerPlugin } from "@apollo/server";
import { usageReportingSignature } from "@apollo/utils.usagereporting";
import type { DocumentNode } from "graphql";
import type { GatewayContext } from "../gateway-context.js";
import { operationCoordinates, type OperationCoordinates } from "./operation-coordinates.js";
import type { UsageRecorder } from "./usage-recorder.js";

interface KnownOperation {
  hash: string;
  coordinates: OperationCoordinates;
}

/**
 * Records the usage of every operation the gateway resolves: its hash, the caller's client (`azp`)
 * and the schema coordinates it uses (operation-coordinates.ts). The hash is the SHA-256 of the
 * operation's name and Apollo's usage reporting signature (literals hidden, aliases removed,
 * definitions sorted), so `aopdProof(id: "1")` and `aopdProof(id: "2")` are one operation. Both are
 * computed once per parsed document (Apollo Server hands the same document to every request with
 * the same text) and per supergraph, since a new supergraph brings a new schema object.
 */
export function usageRecordingPlugin(recorder: UsageRecorder): ApolloServerPlugin<GatewayContext> {
  let known = new WeakMap<DocumentNode, Map<string, KnownOperation>>();
  let knownFor: unknown;
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          if (knownFor !== schema) {
            known = new WeakMap();
            knownFor = schema;
          }
          let byName = known.get(document);
          if (!byName) known.set(document, (byName = new Map()));
          const name = operation.name?.value ?? "";
          let entry = byName.get(name);
          if (!entry) {
            entry = {
              hash: createHash("sha256")
                .update(`${name}\n${usageReportingSignature(document, name)}`)
                .digest("hex"),
              coordinates: operationCoordinates(schema, document, operation),
            };
            byName.set(name, entry);
          }
          recorder.record(entry.hash, contextValue.identity.client, entry.coordinates.document, entry.coordinates.variableCoordinates(request.variables));
        },
      };
    },
  };
}
