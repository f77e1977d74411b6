import { proofIdOf } from "./await-live.js";
import type { Received } from "./subscription-clients.js";

/**
 * "Nothing more arrives" cannot be shown by waiting a while: a late duplicate may come after any
 * pause. Events reach a subscriber in log order, so a test writes one more proof that the
 * subscription matches, the end marker, and waits for it: everything the earlier writes produced
 * has arrived by then, and a duplicate of any of them would arrive before the marker too. Returns
 * how many results arrived from `from` up to the marker (the marker excluded), and fails when
 * anything but the marker's own events follows it.
 */
export async function countBeforeEndMarker(
  writeMarker: () => Promise<{ id: string }>,
  receivedIds: () => (string | undefined)[],
  until: (predicate: () => boolean) => Promise<void>,
  from = 0,
): Promise<number> {
  const marker = await writeMarker();
  await until(() => receivedIds().slice(from).includes(marker.id));
  const ids = receivedIds().slice(from);
  const at = ids.indexOf(marker.id);
  const after = ids.slice(at).filter((id) => id !== marker.id);
  if (after.length > 0) throw new Error(`Received after the end marker: ${JSON.stringify(after)}`);
  return at;
}

/** `countBeforeEndMarker` for a subscriber of subscription-clients.ts whose selection includes `id`: the results before the marker. */
export async function resultsBeforeEndMarker(received: Received, writeMarker: () => Promise<{ id: string }>, from = 0): Promise<Received["results"]> {
  const count = await countBeforeEndMarker(
    writeMarker,
    () => received.results.map(proofIdOf),
    (predicate) => received.until(() => predicate()),
    from,
  );
  return received.results.slice(from, from + count);
}
