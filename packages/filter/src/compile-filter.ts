import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { UserInputError } from "@compliance-graph/errors";
import type { StringConditionInput, TimestampConditionInput } from "./condition-inputs.js";
import {
  defaultFilterLimits,
  type EnumListFieldSpec,
  type FilterFieldSpec,
  type FilterGroupSpec,
  type FilterLimits,
  type StringFieldSpec,
} from "./filter-spec.js";
import { isUuid } from "./is-uuid.js";
import { hasWildcard, unescapePattern, validatePattern } from "./like-pattern.js";

// The builder is untyped on purpose: the spec names columns at run time, and the caller's query
// is typed where it selects rows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBuilder = ExpressionBuilder<any, any>;

/**
 * Compiles a filter input into one boolean expression: every condition given must hold. Pure: no
 * I/O, the same input gives the same expression. User text reaches SQL only as bound parameters;
 * column names come from the spec, never from the input. Bad input throws `UserInputError` naming
 * the field by its path from `path`.
 */
export function compileFilter(
  eb: AnyBuilder,
  spec: FilterGroupSpec,
  input: unknown,
  path: string,
  limits: FilterLimits = defaultFilterLimits,
): Expression<SqlBool> {
  return compileGroup(eb, spec, input, path, limits);
}

function compileGroup(eb: AnyBuilder, spec: FilterGroupSpec, input: unknown, path: string, limits: FilterLimits): Expression<SqlBool> {
  if (input === null || input === undefined) return eb.and([]);
  const parts: Expression<SqlBool>[] = [];
  if (spec.requires) {
    parts.push("equals" in spec.requires ? eb(eb.ref(spec.requires.column), "=", spec.requires.equals) : eb(eb.ref(spec.requires.column), "is not", null));
  }
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    const field = spec.fields[name];
    if (!field) throw new UserInputError(`${path}.${name}`, `is not a filter field; allowed: ${Object.keys(spec.fields).join(", ")}.`);
    parts.push(compileField(eb, field, value, `${path}.${name}`, limits));
  }
  return eb.and(parts);
}

function compileField(eb: AnyBuilder, field: FilterFieldSpec, value: unknown, path: string, limits: FilterLimits): Expression<SqlBool> {
  switch (field.kind) {
    case "group":
      return compileGroup(eb, field, value, path, limits);
    case "string":
      return compileStringCondition(eb, field, value as StringConditionInput, path, limits);
    case "timestamp":
      return compileTimestampCondition(eb, field.column, value as TimestampConditionInput, path);
    case "enumList":
      return compileEnumList(eb, field, value as readonly string[], path);
  }
}

function compileEnumList(eb: AnyBuilder, field: EnumListFieldSpec, values: readonly string[], path: string): Expression<SqlBool> {
  if (values.length === 0) throw new UserInputError(path, `at least one value must be given; allowed: ${field.values.join(", ")}.`);
  const unknown = values.find((value) => !field.values.includes(value));
  if (unknown !== undefined) throw new UserInputError(path, `${JSON.stringify(unknown)} is not allowed; allowed: ${field.values.join(", ")}.`);
  return eb(eb.ref(field.column), "in", [...new Set(values)]);
}

function compileStringCondition(
  eb: AnyBuilder,
  field: StringFieldSpec,
  condition: StringConditionInput,
  path: string,
  limits: FilterLimits,
): Expression<SqlBool> {
  const column = eb.ref(field.column);
  // Patterns on a UUID column match its canonical (lower-case) text form.
  const text = field.uuid ? sql<string>`${column}::text` : column;
  const equalityValue = (value: string) => (field.uuid ? (isUuid(value) ? value.toLowerCase() : undefined) : value);
  const parts: Expression<SqlBool>[] = [];
  const list = (name: "in" | "notIn", values: readonly string[]) => {
    if (values.length > limits.maxListLength) {
      throw new UserInputError(`${path}.${name}`, `has ${values.length} values; at most ${limits.maxListLength} are allowed.`);
    }
    values.forEach((value, index) => withoutNul(value, `${path}.${name}.${index}`));
    return [...new Set(values.map(equalityValue).filter((value): value is string => value !== undefined))];
  };
  const pattern = (name: "like" | "ilike" | "notIlike", value: string) => {
    withoutNul(value, `${path}.${name}`);
    const problem = validatePattern(value, limits.maxPatternLength);
    if (problem) throw new UserInputError(`${path}.${name}`, problem);
    return value;
  };

  if (condition.eq != null) {
    const value = equalityValue(withoutNul(condition.eq, `${path}.eq`));
    parts.push(value === undefined ? eb.lit(false) : eb(column, "=", value));
  }
  if (condition.ne != null) {
    const value = equalityValue(withoutNul(condition.ne, `${path}.ne`));
    if (value !== undefined) parts.push(eb(column, "is distinct from", value));
  }
  if (condition.in != null) {
    const values = list("in", condition.in);
    parts.push(values.length === 0 ? eb.lit(false) : eb(column, "in", values));
  }
  if (condition.notIn != null) {
    const values = list("notIn", condition.notIn);
    if (values.length > 0) parts.push(eb.or([eb(column, "is", null), eb(column, "not in", values)]));
  }
  if (condition.like != null) parts.push(likeExpression(eb, field, column, text, "like", pattern("like", condition.like)));
  if (condition.ilike != null) parts.push(likeExpression(eb, field, column, text, "ilike", pattern("ilike", condition.ilike)));
  if (condition.notIlike != null) parts.push(eb(text, "not ilike", pattern("notIlike", condition.notIlike)));
  if (condition.isNull != null) parts.push(eb(column, condition.isNull ? "is" : "is not", null));
  return eb.and(parts);
}

/**
 * PostgreSQL text cannot hold U+0000: bound, it is an encoding error from the database (22021);
 * written into SQL as a literal (the export's COPY), the statement is refused as a malformed
 * protocol message (08P01). Either is an internal error to the caller, so it is refused here, by
 * name, whichever door the filter came through (the download route's JSON body skips GraphQL's
 * input check, which refuses it with the same message).
 */
function withoutNul(value: string, path: string): string {
  if (typeof value === "string" && value.includes("\u0000")) throw new UserInputError(path, "must not contain a NUL character (U+0000).");
  return value;
}

/**
 * A pattern without wildcards on a UUID column is an equality in disguise (the deprecated
 * `proof(id)` sends exactly that): compiling it to `id = $1` lets the primary key answer it
 * instead of a scan over the text form.
 */
function likeExpression(
  eb: AnyBuilder,
  field: StringFieldSpec,
  column: Expression<unknown>,
  text: Expression<unknown>,
  operator: "like" | "ilike",
  pattern: string,
): Expression<SqlBool> {
  if (field.uuid && !hasWildcard(pattern)) {
    const literal = unescapePattern(pattern);
    const matches = operator === "ilike" ? isUuid(literal) : isUuid(literal) && literal === literal.toLowerCase();
    return matches ? eb(column, "=", literal.toLowerCase()) : eb.lit(false);
  }
  return eb(text, operator, pattern);
}

function compileTimestampCondition(eb: AnyBuilder, columnName: string, condition: TimestampConditionInput, path: string): Expression<SqlBool> {
  const column = eb.ref(columnName);
  const parts: Expression<SqlBool>[] = [];
  const operators = [
    ["eq", "="],
    ["lt", "<"],
    ["lte", "<="],
    ["gt", ">"],
    ["gte", ">="],
  ] as const;
  for (const [name, operator] of operators) {
    const value = condition[name];
    if (value == null) continue;
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new UserInputError(`${path}.${name}`, "must be an RFC 3339 timestamp.");
    parts.push(eb(column, operator, value));
  }
  if (condition.isNull != null) parts.push(eb(column, condition.isNull ? "is" : "is not", null));
  return eb.and(parts);
}
