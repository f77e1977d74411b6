/**
 * Sharing one execution among identical requests in flight. Threat: one caller receiving an answer
 * computed for another, whose identity or roles let it see more (another officer's proofs, fields
 * its roles do not allow). So an answer is shared only among requests whose key is equal, and the
 * key holds the whole identity the gateway established (subject, client, username and the sorted
 * roles) beside everything of the request that can change the answer: the query text, the
 * operation name, the variables and extensions, and the headers Apollo Server reads (`content-type`,
 * `accept`, `apollo-require-preflight`, `x-apollo-operation-name`). Two callers with different
 * identities never share, whatever else they send (test/security/inflight-request-sharing.test.ts).
 *
 * Only queries are shared, never mutations or anything that does not parse as one query operation:
 * a write runs once per request. An answer is shared only while it is being computed; nothing is
 * kept once it is written, so this is not a cache and cannot serve stale data. The leader's request
 * runs the whole pipeline (authorization, cost, planning, execution); the callers that join it get
 * the leader's status, headers and bytes. What differs for them: the gateway's log and trace of the
 * execution carry the leader's request id, and the subgraphs see only the leader's request.
 *
 * A new supergraph ends the sharing of every execution in flight: the leader was validated,
 * authorized and planned on the old one, so a request that arrives once the new one is served
 * must not receive its answer (a field the new version removed, or one it now guards with a role
 * the caller lacks, would be answered as before). Such a request runs on its own, on the new
 * supergraph; the old executions finish for those that joined them before the change.
 */
import type { IncomingMessage } from "node:http";
import { parse, type DocumentNode } from "graphql";
import type { Counter } from "prom-client";
import type { GraphQLAnswer } from "@compliance-graph/graphql-execution";
import type { Identity } from "@compliance-graph/identity";

/** The request headers that can change Apollo Server's answer; all others are left out of the key. */
export const sharedRequestHeaders = ["content-type", "accept", "apollo-require-preflight", "x-apollo-operation-name"] as const;

export interface InflightRequestSharing {
  /** The request's sharing key, or `undefined` when it must run on its own (not a query, not a POST, not parseable). */
  keyOf(identity: Identity, request: IncomingMessage, body: unknown): string | undefined;
  /**
   * Runs `execute` unless a request with the same key is in flight, whose answer is then returned
   * and `joined` called with it (the answer's own fields beside status, headers and body are the
   * leader's: usage recording counts the joining request by them).
   */
  share<Answer extends GraphQLAnswer>(key: string, execute: () => Promise<Answer>, joined?: (answer: Answer) => void): Promise<Answer>;
  /** The gateway serves a new supergraph: no request joins an execution that started before. */
  supergraphChanged(): void;
}

export interface InflightRequestSharingOptions {
  /** Counts requests answered with another request's execution. */
  shared: Counter;
  /** The parser's token limit (`GRAPHQL_MAX_TOKENS`): a document is parsed here before Apollo Server's checks. */
  maxTokens: number;
  /** Documents whose operation kinds are remembered. @default 1_000 */
  maxDocuments?: number;
}

export function createInflightRequestSharing(options: InflightRequestSharingOptions): InflightRequestSharing {
  const maxDocuments = options.maxDocuments ?? 1_000;
  const inflight = new Map<string, Promise<GraphQLAnswer>>();
  // Which operation of a document is a query: parsed once per query text (Apollo Server parses
  // again, with its own cache; a document that does not parse is never shared and Apollo answers it).
  const documents = new Map<string, DocumentNode | null>();
  const documentOf = (query: string): DocumentNode | null => {
    let document = documents.get(query);
    if (document === undefined) {
      try {
        document = parse(query, { maxTokens: options.maxTokens, noLocation: true });
      } catch {
        document = null;
      }
      if (documents.size >= maxDocuments) documents.clear();
      documents.set(query, document);
    }
    return document;
  };
  const isQuery = (query: string, operationName: unknown): boolean => {
    const document = documentOf(query);
    if (!document) return false;
    const operations = document.definitions.filter((definition) => definition.kind === "OperationDefinition");
    const operation =
      typeof operationName === "string"
        ? operations.find((candidate) => candidate.name?.value === operationName)
        : operations.length === 1
          ? operations[0]
          : undefined;
    return operation?.operation === "query";
  };

  return {
    keyOf(identity, request, body) {
      if (request.method !== "POST" || !body || typeof body !== "object" || Array.isArray(body)) return undefined;
      const { query, operationName, variables, extensions } = body as Record<string, unknown>;
      if (typeof query !== "string" || (operationName !== undefined && operationName !== null && typeof operationName !== "string")) return undefined;
      if (!isQuery(query, operationName ?? undefined)) return undefined;
      return JSON.stringify([
        identity.subject,
        identity.client,
        identity.username ?? null,
        [...identity.roles].sort(),
        sharedRequestHeaders.map((name) => request.headers[name] ?? null),
        query,
        operationName ?? null,
        variables ?? null,
        extensions ?? null,
      ]);
    },
    share<Answer extends GraphQLAnswer>(key: string, execute: () => Promise<Answer>, joined?: (answer: Answer) => void) {
      // Every execution under a key was started by this same function with the same `execute` type.
      const running = inflight.get(key) as Promise<Answer> | undefined;
      if (running) {
        options.shared.inc();
        return joined ? running.then((answer) => (joined(answer), answer)) : running;
      }
      const answer = execute();
      inflight.set(key, answer);
      // Only its own entry: after a new supergraph, the key may belong to a newer execution.
      const forget = () => {
        if (inflight.get(key) === answer) inflight.delete(key);
      };
      answer.then(forget, forget);
      return answer;
    },
    supergraphChanged() {
      inflight.clear();
    },
  };
}
