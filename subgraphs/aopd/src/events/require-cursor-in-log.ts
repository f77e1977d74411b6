import { UserInputError } from "@compliance-graph/errors";
import { encodeEventCursor } from "./event-cursor.js";

/**
 * Refuses an `after` position the log cannot continue from: one older than the events kept (they
 * were pruned, so a replay from it would skip some), naming the oldest cursor accepted, or one past
 * the log's end (no event of this log had it). The subscription and `proofEvents` share it.
 */
export function requireCursorInLog(position: bigint, bounds: { sequencedThrough: string; prunedThrough: string }): void {
  if (position < BigInt(bounds.prunedThrough)) {
    throw new UserInputError(
      "after",
      `names an event older than the oldest one kept; the oldest cursor accepted is ${encodeEventCursor(bounds.prunedThrough)}. Read the current proofs with \`proofs\` and continue without \`after\`, or from that cursor.`,
    );
  }
  if (position > BigInt(bounds.sequencedThrough))
    throw new UserInputError("after", "names no event of this log; pass the `eventCursor` of an event you received.");
}
