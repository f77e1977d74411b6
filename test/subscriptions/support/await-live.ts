import type { ProofWriter } from "./proof-writer.js";
import type { Received } from "./subscription-clients.js";

/**
 * Neither subprotocol acknowledges a subscription, so a test cannot tell when the subgraph has
 * registered it. It writes probe proofs (that match the subscription's filter) until one arrives;
 * from then on every committed change must arrive. Returns how many results the probes produced.
 */
export async function awaitLive(writer: ProofWriter, received: Received, fields: { customerId: string }): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (received.error !== undefined) throw new Error(`The subscription failed: ${JSON.stringify(received.error)}`);
    const before = received.results.length;
    await writer.create({ ...fields, comment: "probe" });
    try {
      await received.until((state) => state.results.length > before, 200);
      // Probes in flight may still arrive; wait for the stream to settle on all of them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return received.results.length;
    } catch {
      // Not registered yet: probe again.
    }
  }
  throw new Error("The subscription never went live.");
}
