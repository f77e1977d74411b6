import type { ProofWriter } from "./proof-writer.js";
import type { Received } from "./subscription-clients.js";

/** The proof id of an `aopdProofs` result, when the selection has one. */
export const proofIdOf = (result: Received["results"][number] | undefined) => (result?.data?.aopdProofs as { id?: string } | undefined)?.id;

/**
 * Neither subprotocol acknowledges a subscription, so a test cannot tell when the subgraph has
 * registered it. It writes probe proofs (that match the subscription's filter) until one arrives;
 * from then on every committed change must arrive. Events arrive in log order, so every probe
 * written after the first one received arrives too (and none before it): the function waits for
 * those, then returns how many results the probes produced. The selection must include `id`.
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
    const first = probes.indexOf(proofIdOf(received.results[before]) ?? "");
    if (first < 0) throw new Error(`The first result is not one of the probes (the selection needs \`id\`): ${JSON.stringify(received.results[before])}`);
    await received.until((state) => state.results.length >= before + probes.length - first, 10_000);
    return received.results.length;
  }
  throw new Error("The subscription never went live.");
}
