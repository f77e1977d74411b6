import { validateFilter, type FilterLimits } from "@compliance-graph/filter";
import { proofFilterSpec } from "./proof-filter-spec.js";

/**
 * Throws the `UserInputError` (naming the field under `filter`) that `proofs` would answer for
 * this `AopdProofFilterInput`, without building a query: for the doors that refuse a bad filter
 * before their first statement (the export, `proofEvents`, the subscription) or run none at all
 * (a page of `limit: 0`).
 */
export function validateProofFilter(filter: unknown, limits: FilterLimits): void {
  validateFilter(proofFilterSpec, filter, "filter", limits);
}
