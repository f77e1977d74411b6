export { conditionsSchemaFile, type StringConditionInput, type TimestampConditionInput } from "./condition-inputs.js";
export {
  defaultFilterLimits,
  type EnumListFieldSpec,
  type FilterFieldSpec,
  type FilterGroupSpec,
  type FilterLimits,
  type StringFieldSpec,
  type TimestampFieldSpec,
} from "./filter-spec.js";
export { compileFilter } from "./compile-filter.js";
export { validateFilter } from "./validate-filter.js";
export { hasWildcard, matchesPattern, unescapePattern, validatePattern } from "./like-pattern.js";
export { dateTimeScalar } from "./date-time-scalar.js";
export { isUuid } from "./is-uuid.js";
