import type { ProofWriter } from "./proof-writer.js";
import type { Received } from "./subscription-clients.js";

const idOf = (result: Received["results"][number] | undefined) => (result?.data?.aopdProofs as { id?: string } | undefined)?.id;

/**
 * Neither subprotocol acknowledges a subscription, so a test cannot tell when the subgraph has
 * registered it. It writes probe proofs (that match the subscription's filter) until one arrives;
 * from then on every committed change must arrive. Events arrive in log order, so every probe
 * written after the first one received arrives too (and none before it): the function waits for
 * those, then returns how many results the probes produced.
 */
export async function awaitLive(writer: ProofWriter, received: Received, fields: { customerId: string }): Promise<number> {
  const probes: string[] = [];
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (received.error !== undefined) throw new Error(`The subscription failed: ${JSON.stringify(received.error)}`);
    const before = received.results.length;
    probes.push((await writer.create({ ...fields, comment: "probe" })).id);
    try {
      await received.until((state) => state.results.length > before, 300);
    } catch {
      continue; // Not registered yet: probe again.
    }
    const first = probes.indexOf(idOf(received.results[before]) ?? "");
    if (first < 0) {
      // A selection without `id`: let probes in flight settle.
      await new Promise((resolve) => setTimeout(resolve, 500));
      return received.results.length;
    }
    await received.until((state) => state.results.length >= before + probes.length - first, 10_000);
    return received.results.length;
  }
  throw new Error("The subscription never went live.");
}
