import { UserInputError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { screenAddress } from "./screen-address.js";
import type { ScreeningPolicy } from "./screening-config.js";
import type { Screening } from "./screening.js";

/** The longest address any supported family writes is far shorter; a longer one is not an address. */
const maxAddressLength = 256;

/**
 * What a request for the address would meet, asked before it is made (`screenAddress`): the
 * screening a proof created now would get, and whether the policy would refuse it. The officer
 * sees a LISTED match before the link exists, instead of on the proof's detail afterwards.
 */
export async function checkAddressBeforeRequest(
  db: Kysely<AopdDatabase>,
  policy: ScreeningPolicy,
  asset: string,
  address: string,
): Promise<{ screening: Screening; refused: boolean }> {
  const trimmed = address.trim();
  if (trimmed.length === 0 || trimmed.length > maxAddressLength)
    throw new UserInputError("address", `must be 1 to ${maxAddressLength} characters; got ${trimmed.length}.`);
  const screening = await screenAddress(db, asset, trimmed);
  return { screening, refused: policy === "refuse" && screening.status === "LISTED" };
}
