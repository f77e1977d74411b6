import { UserInputError } from "@compliance-graph/errors";

const prefix = "proof-event:";

/**
 * An event's position as an opaque cursor: clients pass it back as `after` rather than computing
 * positions, which leaves the log free to change how it numbers (shards, epochs) later.
 */
export function encodeEventCursor(position: string): string {
  return Buffer.from(prefix + position, "utf8").toString("base64url");
}

/** The position a cursor names; `UserInputError` naming `field` for anything that is not one. */
export function decodeEventCursor(cursor: string, field: string): string {
  const text = cursor.length <= 64 ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const position = text.startsWith(prefix) ? text.slice(prefix.length) : "";
  if (!/^(0|[1-9][0-9]{0,17})$/.test(position)) {
    throw new UserInputError(field, "is not an event cursor; pass the `eventCursor` of an event you received (from `aopdProofs` or `proofEvents`).");
  }
  return position;
}
