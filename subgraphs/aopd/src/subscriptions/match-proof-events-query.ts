import { sql, type Kysely } from "kysely";
import { compileFilter, type FilterLimits } from "@compliance-graph/filter";
import type { AopdDatabase } from "../database/database-schema.js";
import { proofFilterSpec } from "../proofs/proof-filter-spec.js";

/** The name of the column that says whether the row matches `filters[index]`. */
export const matchColumn = (index: number) => `m${index}`;

/**
 * The committed rows of the proofs that events name, each with one boolean column per filter
 * (`m0`, `m1`, ...): does the row match it. The filters compile with the same compiler as
 * `Aopd.proofs`, so a subscriber receives exactly the proofs that `proofs(filter)` would list, by
 * construction rather than by a second implementation of the filter semantics. One query serves a
 * batch of events and every distinct filter of the replica's subscribers.
 */
export function matchProofEventsQuery(db: Kysely<AopdDatabase>, ids: readonly string[], filters: readonly unknown[], limits: FilterLimits) {
  return db
    .selectFrom("aopd_proof")
    .selectAll()
    .select((eb) => filters.map((filter, index) => sql<boolean | null>`${compileFilter(eb, proofFilterSpec, filter, "filter", limits)}`.as(matchColumn(index))))
    .where("id", "in", [...ids]);
}
