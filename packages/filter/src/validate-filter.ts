import { expressionBuilder } from "kysely";
import { compileFilter } from "./compile-filter.js";
import { defaultFilterLimits, type FilterGroupSpec, type FilterLimits } from "./filter-spec.js";

/**
 * Throws the `UserInputError` that compiling `input` would throw, and nothing otherwise: for a
 * caller that must refuse a bad filter before it does any work (opens a transaction, takes an
 * export slot, answers with headers) but compiles the filter only later, or not at all. It is the
 * compiler's own walk, on an expression builder of no query, so the two can never disagree on
 * what a valid filter is.
 */
export function validateFilter(spec: FilterGroupSpec, input: unknown, path: string, limits: FilterLimits = defaultFilterLimits): void {
  compileFilter(expressionBuilder(), spec, input, path, limits);
}
