import { UserInputError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { screenAddress } from "./screen-address.js";
import type { ScreeningPolicy } from "./screening-config.js";

/**
 * Under `AOPD_SCREENING_POLICY=refuse`, refuses a new proof request for an address the newest list
 * version names, with a `BAD_USER_INPUT` naming the field, the list, its version and the entry, so
 * that the requester knows why and nothing is created. Under `flag` (the default) it lets the
 * request through: the proof is created LISTED and the compliance team sees it.
 *
 * A repeat of an idempotent request is refused too once its address is listed: the policy holds at
 * the moment of asking, and the first answer's proof stays as it was.
 */
export async function refuseListedAddress(db: Kysely<AopdDatabase>, policy: ScreeningPolicy, field: string, asset: string, address: string): Promise<void> {
  if (policy !== "refuse") return;
  const screening = await screenAddress(db, asset, address);
  if (screening.status !== "LISTED" || !screening.matchedEntry) return;
  const entry = screening.matchedEntry;
  throw new UserInputError(
    field,
    `${address} is listed on the ${screening.list} list (version ${screening.listVersion}, entry ${entry.asset} ${entry.address}${entry.sdnUid ? `, SDN uid ${entry.sdnUid}` : ""}); ` +
      "this deployment refuses proof requests for listed addresses (AOPD_SCREENING_POLICY=refuse).",
  );
}
