import { createHash } from "node:crypto";
import { usageReportingSignature } from "@apollo/utils.usagereporting";
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from "graphql";
import { operationCoordinates, type OperationCoordinates } from "./operation-coordinates.js";
import type { UsageRecorder } from "./usage-recorder.js";

interface KnownOperation {
  hash: string;
  coordinates: OperationCoordinates;
}

/** One operation served to one client: what usage recording needs of it, on either lane. */
export interface ServedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
  client: string;
}

/** Counts operations served, over HTTP (usage-recording-plugin.ts) and over WebSocket (a subscription started). */
export interface OperationUsage {
  /** Counts one use; `request`, when given, names it for `recordAgain` while it is alive (held weakly). */
  record(served: ServedOperation, request?: object): void;
  /** Counts once more what was recorded for `request`: a request answered with its execution (GATEWAY_SHARE_REQUESTS). */
  recordAgain(request: object): void;
}

/**
 * Records an operation's usage: its hash, the caller's client (`azp`) and the schema coordinates
 * it uses (operation-coordinates.ts). The hash is the SHA-256 of the operation's name and Apollo's
 * usage reporting signature (literals hidden, aliases removed, definitions sorted), so
 * `aopdProof(id: "1")` and `aopdProof(id: "2")` are one operation. Both are computed once per
 * parsed document and schema (Apollo Server and the subscription planner hand the same document
 * to every request with the same text; a new supergraph brings new schema objects), held weakly.
 */
export function createOperationUsage(recorder: UsageRecorder): OperationUsage {
  const known = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, KnownOperation>>>();
  const servedFor = new WeakMap<object, ServedOperation>();
  const usage: OperationUsage = {
    record(served, request) {
      const { schema, document, operation, variables, client } = served;
      if (request) servedFor.set(request, served);
      let bySchema = known.get(schema);
      if (!bySchema) known.set(schema, (bySchema = new WeakMap()));
      let byName = bySchema.get(document);
      if (!byName) bySchema.set(document, (byName = new Map()));
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
      recorder.record(entry.hash, client, entry.coordinates.document, entry.coordinates.variableCoordinates(variables));
    },
    recordAgain(request) {
      const served = servedFor.get(request);
      if (served) usage.record(served);
    },
  };
  return usage;
}
