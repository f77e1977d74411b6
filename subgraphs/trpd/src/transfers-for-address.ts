import { createHash } from "node:crypto";
import { vasps } from "./vasps.js";

export interface Transfer {
  id: string;
  counterpartyVasp: string;
  direction: "INCOMING" | "OUTGOING";
  address: string;
}

/**
 * The stub's travel-rule transfers of an address: derived deterministically from the address, so
 * the same proof always shows the same transfers (zero to two) without a store of its own.
 */
export function transfersForAddress(address: string): Transfer[] {
  const digest = createHash("sha256").update(address).digest();
  const count = (digest[0] ?? 0) % 3;
  const transfers: Transfer[] = [];
  for (let index = 0; index < count; index += 1) {
    const byte = digest[index + 1] ?? 0;
    transfers.push({
      id: `trpd-${digest.subarray(8 + index * 4, 12 + index * 4).toString("hex")}`,
      counterpartyVasp: vasps[byte % vasps.length]?.name ?? "unknown",
      direction: byte % 2 === 0 ? "INCOMING" : "OUTGOING",
      address,
    });
  }
  return transfers;
}
