import type { FilterLimits } from "@compliance-graph/filter";
import type { Logger } from "@compliance-graph/process-shell";
import type { AopdMetrics } from "../aopd-metrics.js";
import type { Database } from "../database/open-database.js";
import { ProofSubscriptionHub } from "./proof-subscription-hub.js";
import { Sequencer } from "../database/sequencer.js";
import { sequenceProofEvents } from "./sequence-proof-events.js";
import { startProofEventListener } from "./proof-event-listener.js";

export interface ProofEventPumpOptions {
  database: Database;
  limits: FilterLimits;
  /** Counts what each numbering numbered (`proofEvents`). */
  metrics: Pick<AopdMetrics, "proofEvents">;
  logger: Logger;
  /**
   * An audit entry was inserted (`aopd_audit_writes`), or LISTEN is back after an interruption:
   * the audit trail's sequencer should run. The pump's LISTEN connection carries it so that a
   * replica holds one such connection, not one per channel.
   */
  onAuditWrite?: () => void;
}

export interface ProofEventPump {
  /** The replica's one hub of proof events: GraphQL subscriptions and the portal's event streams read it. */
  hub: ProofSubscriptionHub;
  /** Resolves once LISTEN is in place and the hub knows where the event log ends. */
  ready: Promise<void>;
  /** Ends every subscriber, then stops numbering and listening. */
  close(): Promise<void>;
}

/**
 * The process half of the event pump (the database half is `createRecordProofEventTrigger`): the
 * listener that hears of proof writes and numberings, the sequencer that numbers committed events,
 * and the hub that delivers them. Started once per replica by `startAopd`, beside and not inside
 * any consumer, so the portal's live page works whether or not GraphQL subscriptions are served,
 * and every consumer reads the same hub (one shared query per batch of events, whoever asks).
 */
export function startProofEventPump(options: ProofEventPumpOptions): ProofEventPump {
  const { database, logger, metrics } = options;
  const hub = new ProofSubscriptionHub({ db: database.db, limits: options.limits, logger });
  const sequencer = new Sequencer({
    what: "numbering proof events",
    sequence: () => sequenceProofEvents(database.db),
    logger,
    onSequenced: (numbered) => {
      for (const { change, kind, status, count } of numbered) metrics.proofEvents.inc({ change, kind, status }, count);
    },
  });
  const listener = startProofEventListener({
    database,
    logger,
    onWrite: () => sequencer.request(),
    onAuditWrite: () => options.onAuditWrite?.(),
    onEvents: (position) => hub.announced(position),
    // Back after an interruption: number and read what was written meanwhile.
    onListening: () => {
      sequencer.request();
      options.onAuditWrite?.();
      hub.refresh().catch((error: unknown) => logger.warn({ err: error }, "reading the end of the proof event log failed"));
    },
  });
  return {
    hub,
    ready: listener.ready.then(() => hub.refresh()),
    close: async () => {
      hub.endAll();
      await sequencer.stop();
      await listener.close();
    },
  };
}
