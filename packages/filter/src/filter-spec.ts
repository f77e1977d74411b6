/**
 * A declarative description of a filter input: which input field maps to which column and how it
 * is compared. The compiler walks the input along this description, so a subgraph states its
 * filter once and gets compilation, validation and error paths from it.
 *
 * `Column` is the union of the table's column names (`keyof MyTable & string`): a subgraph that
 * types its spec with it gets a compile error for a column the table does not have, as its sort
 * columns do, instead of an SQL error on the first request that uses the field. Untyped, any
 * string is accepted.
 */
export type FilterFieldSpec<Column extends string = string> =
  StringFieldSpec<Column> | TimestampFieldSpec<Column> | EnumListFieldSpec<Column> | FilterGroupSpec<Column>;

export interface StringFieldSpec<Column extends string = string> {
  kind: "string";
  column: Column;
  /** The column holds UUIDs: equality compares UUIDs, patterns match their text form. */
  uuid?: boolean;
}

export interface TimestampFieldSpec<Column extends string = string> {
  kind: "timestamp";
  column: Column;
}

/** A list of enum values the column must be one of; an empty list is refused. */
export interface EnumListFieldSpec<Column extends string = string> {
  kind: "enumList";
  column: Column;
  values: readonly string[];
}

export interface FilterGroupSpec<Column extends string = string> {
  kind: "group";
  fields: Readonly<Record<string, FilterFieldSpec<Column>>>;
  /** A condition the row must meet whenever this group is given, even empty (for example its kind). */
  requires?: { column: Column; equals: string } | { column: Column; notNull: true };
}

export interface FilterLimits {
  /** Longest pattern (`like`, `ilike`, `notIlike`) accepted. @default 256 // characters */
  maxPatternLength: number;
  /** Most values accepted in `in` and `notIn`. @default 1_000 */
  maxListLength: number;
}

export const defaultFilterLimits: FilterLimits = { maxPatternLength: 256, maxListLength: 1_000 };
