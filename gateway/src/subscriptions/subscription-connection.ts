import type { DocumentNode, GraphQLError } from "graphql";
import type WebSocket from "ws";
import { InternalServerError, LimitExceededError, ServiceUnavailableError, UnauthenticatedError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { OperationChecks, OperationPayload } from "@compliance-graph/graphql-execution";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import type { GatewayMetrics } from "../gateway-metrics.js";
import type { QuotaDoor } from "../quotas/quota-door.js";
import type { OperationUsage } from "../usage/operation-usage.js";
import { authenticateConnection } from "./authenticate-connection.js";
import type { FederatedSubscriptions } from "./federated-subscriptions.js";
import { SubscriptionCloseCode } from "./subscription-close-code.js";
import type { SubscriptionLimits } from "./subscription-limits.js";
import type { ConnectionBudget, SubscriptionMember } from "./subscription-member.js";
import type { SubscriptionPlanner } from "./subscription-planner.js";
import { isRefusal, type QuotaTicket, type SubscriptionQuota } from "./subscription-quota.js";

/** What every socket shares: the verifier, the current supergraph, the running subscriptions. */
export interface SubscriptionService {
  verifier: AccessTokenVerifier;
  planner(): SubscriptionPlanner | undefined;
  subscriptions: FederatedSubscriptions;
  limits: SubscriptionLimits;
  /** The checks of an operation, the HTTP lane's own (query limits, input values, cost; see `prepareOperation`). */
  lane: Pick<OperationChecks, "limits" | "checks">;
  logger: Logger;
  metrics?: GatewayMetrics | undefined;
  /** The open client sockets (for the metrics). */
  connections: Set<SubscriptionConnection>;
  /** Sockets and subscriptions per subject, per address and in total. */
  quota: SubscriptionQuota;
  /** Requests and cost per client and subject, as over HTTP (quotas/); none when undefined. */
  quotas?: QuotaDoor | undefined;
  /** Counts each subscription started as one use of its operation, as a request is over HTTP (usage/); none when undefined. */
  usage?: OperationUsage | undefined;
}

export interface StartedSubscription {
  member: SubscriptionMember;
  document: DocumentNode;
  operationName: string | undefined;
}

/** `setTimeout` holds at most 2^31 - 1 ms (about 24.8 days). */
const maxTimerMs = 2_147_483_647;

/**
 * The state of one client socket, whichever subprotocol it speaks: who it is (once
 * `connection_init` was verified), when its token expires (then it is closed with 4440), how
 * many result bytes wait for it (past the limit it is closed with 4413: one slow reader cannot make
 * the gateway buffer without bound), and the places it holds in the quota (its subject's socket,
 * each running subscription), given back as they end.
 */
export class SubscriptionConnection implements ConnectionBudget {
  readonly #socket: WebSocket;
  readonly #service: SubscriptionService;
  readonly #address: string;
  #identity: Identity | undefined;
  #subjectTicket: QuotaTicket | undefined;
  #expiryTimer: NodeJS.Timeout | undefined;
  #pendingBytes = 0;
  #closing = false;
  /** Running subscriptions and their places in the quota. */
  readonly #members = new Map<SubscriptionMember, QuotaTicket>();

  /** `address`: the client's, as the quota counts it (the socket was admitted by it already). */
  constructor(socket: WebSocket, service: SubscriptionService, address: string) {
    this.#socket = socket;
    this.#service = service;
    this.#address = address;
    service.connections.add(this);
  }

  get protocol(): string {
    return this.#socket.protocol || "none";
  }

  /** Subscriptions of this socket that have not ended. */
  get runningSubscriptions(): number {
    return this.#members.size;
  }

  get identity(): Identity | undefined {
    return this.#identity;
  }

  /** Verifies the `connection_init` payload; on failure closes the socket and returns false. */
  async authenticate(payload: unknown, beforeClose?: (error: GraphQLError) => void): Promise<boolean> {
    try {
      const { identity, expiresAt } = await authenticateConnection(payload, this.#service.verifier);
      const remaining = expiresAt - Date.now();
      if (remaining <= 0) throw new UnauthenticatedError();
      const admitted = this.#service.quota.admitSubject(identity.subject);
      if (isRefusal(admitted)) {
        this.#service.metrics?.subscriptionRefusals.inc({ limit: admitted.limit });
        beforeClose?.(new LimitExceededError(admitted.limit, admitted.allowed, admitted.message));
        this.close(SubscriptionCloseCode.TooManyConnections, "Too many connections");
        return false;
      }
      // The socket may have closed while the token was verified.
      if (this.#closing) {
        admitted.release();
        return false;
      }
      this.#subjectTicket = admitted;
      this.#identity = identity;
      this.#expiryTimer = setTimeout(() => this.close(SubscriptionCloseCode.TokenExpired, "Token expired"), Math.min(remaining, maxTimerMs));
      this.#expiryTimer.unref();
      return true;
    } catch (error) {
      if (error instanceof UnauthenticatedError) {
        beforeClose?.(error);
        this.close(SubscriptionCloseCode.Unauthorized, "Unauthorized");
      } else {
        // The identity provider is unreachable: not the client's fault, so it may retry.
        this.#service.logger.error({ err: error }, "subscription authentication failed");
        beforeClose?.(new ServiceUnavailableError("identity provider"));
        this.close(SubscriptionCloseCode.TryAgainLater, "Try again later");
      }
      return false;
    }
  }

  /**
   * Starts a subscription on the current supergraph, or returns why not. `running` counts the
   * socket's subscriptions including this one.
   */
  start(payload: OperationPayload, running: number): StartedSubscription | GraphQLError[] {
    const identity = this.#identity;
    if (!identity) return [new UnauthenticatedError()];
    const { limits } = this.#service;
    if (running > limits.maxSubscriptionsPerConnection) {
      const max = limits.maxSubscriptionsPerConnection;
      return [new LimitExceededError("maxSubscriptionsPerConnection", max, `A connection may run at most ${max} subscriptions; complete one first.`)];
    }
    const planner = this.#service.planner();
    if (!planner) return [new ServiceUnavailableError("supergraph", "The gateway has not loaded its supergraph yet; try again shortly.")];
    // Each subscription started is a request of the caller's quota, counted before planning like a POST.
    const rateLimited = this.#service.quotas?.admitRequest(identity);
    if (rateLimited) return [rateLimited];
    // Admitted before planning, so a caller at its cap costs no planning; given back if it fails.
    const admitted = this.#service.quota.admitOperation(identity.subject, this.#address);
    if (isRefusal(admitted)) {
      this.#service.metrics?.subscriptionRefusals.inc({ limit: admitted.limit });
      return [new LimitExceededError(admitted.limit, admitted.allowed, admitted.message)];
    }
    let planned;
    try {
      const { quotas, lane } = this.#service;
      planned = planner.prepare(payload, identity, quotas ? quotas.laneFor(lane, identity) : lane);
    } catch (error) {
      admitted.release();
      this.#service.logger.error({ err: error }, "subscription planning failed");
      return [new InternalServerError()];
    }
    if (Array.isArray(planned)) {
      admitted.release();
      return planned;
    }
    const { operation, schema } = planned.operationContext;
    this.#service.usage?.record({ schema, document: planned.document, operation, variables: planned.variables, client: identity.client });
    const member = this.#service.subscriptions.subscribe(planned, identity, this);
    if (member.ended) admitted.release();
    else this.#members.set(member, admitted);
    return { member, document: planned.document, operationName: planned.operationContext.operation.name?.value };
  }

  ended(member: SubscriptionMember): void {
    this.#members.get(member)?.release();
    this.#members.delete(member);
  }

  add(bytes: number): void {
    this.#pendingBytes += bytes;
    if (this.#pendingBytes + this.#socket.bufferedAmount > this.#service.limits.maxBufferedBytes) {
      this.#service.logger.warn({ pendingBytes: this.#pendingBytes, subject: this.#identity?.subject }, "closing a slow subscription consumer");
      this.#service.metrics?.slowConsumerCloses.inc({ protocol: this.protocol });
      this.close(SubscriptionCloseCode.SlowConsumer, "Slow consumer");
    }
  }

  release(bytes: number): void {
    this.#pendingBytes -= bytes;
  }

  /**
   * Closes the socket. The close frame follows what is already in the socket's buffer, so a slow
   * reader still learns why; `ws` destroys a socket whose peer does not answer within 30 seconds.
   */
  close(code: number, reason: string): void {
    if (this.#closing) return;
    this.#closing = true;
    clearTimeout(this.#expiryTimer);
    this.#socket.close(code, reason);
  }

  /**
   * The socket closed: stop the timer and give back its places (the protocol handler ends the
   * subscriptions, which would give theirs back too; a ticket is released once).
   */
  dispose(): void {
    this.#closing = true;
    clearTimeout(this.#expiryTimer);
    this.#service.connections.delete(this);
    this.#subjectTicket?.release();
    for (const ticket of this.#members.values()) ticket.release();
  }
}
