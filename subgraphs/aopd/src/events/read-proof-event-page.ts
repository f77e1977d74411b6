import type { Kysely } from "kysely";
import { UserInputError } from "@compliance-graph/errors";
import type { FilterLimits } from "@compliance-graph/filter";
import type { AopdDatabase } from "../database/database-schema.js";
import { validateProofFilter } from "../proofs/validate-proof-filter.js";
import { decodeEventCursor, encodeEventCursor } from "./event-cursor.js";
import { requireCursorInLog } from "./require-cursor-in-log.js";
import type { ProofEvent } from "./proof-event.js";
import { selectMatchingProofEvents, toProofEvent } from "./select-proof-events.js";
import { readEventLogBounds } from "./sequence-proof-events.js";

export interface ProofEventPageInput {
  after?: string | null;
  limit: number;
  filter?: unknown;
}

export interface ProofEventPage {
  events: (ProofEvent & { cursor: string })[];
  endCursor: string | null;
  hasMore: boolean;
}

/** Most events one `proofEvents` call returns. */
export const maxProofEventPage = 1_000;

/**
 * `Aopd.proofEvents`: the matching events after a cursor, up to the end of the log as it stood
 * when the page was read. `endCursor` moves past events that did not match, so a poller with a
 * narrow filter advances through the log instead of re-reading it.
 */
export async function readProofEventPage(db: Kysely<AopdDatabase>, input: ProofEventPageInput, limits: FilterLimits): Promise<ProofEventPage> {
  if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > maxProofEventPage) {
    throw new UserInputError("limit", `must be from 1 to ${maxProofEventPage}.`);
  }
  validateProofFilter(input.filter, limits);
  const requested = input.after === null || input.after === undefined ? undefined : decodeEventCursor(input.after, "after");
  const { sequencedThrough, prunedThrough } = await readEventLogBounds(db);
  if (requested !== undefined) requireCursorInLog(BigInt(requested), { sequencedThrough, prunedThrough });
  const after = requested ?? prunedThrough;
  const rows = await selectMatchingProofEvents(db, input.filter, limits, after, sequencedThrough).limit(input.limit).execute();
  const events = rows.map((row) => {
    const event = toProofEvent(row);
    return { ...event, cursor: event.proof.eventCursor };
  });
  const full = events.length === input.limit;
  const end = full ? (events.at(-1) as ProofEvent).position : sequencedThrough;
  return { events, endCursor: end === "0" ? null : encodeEventCursor(end), hasMore: BigInt(end) < BigInt(sequencedThrough) };
}
