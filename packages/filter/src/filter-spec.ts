/**
 * A declarative description of a filter input: which input field maps to which column and how it
 * is compared. The compiler walks the input along this description, so a subgraph states its
 * filter once and gets compilation, validation and error paths from it.
 */
export type FilterFieldSpec = StringFieldSpec | TimestampFieldSpec | EnumListFieldSpec | FilterGroupSpec;

export interface StringFieldSpec {
  kind: "string";
  column: string;
  /** The column holds UUIDs: equality compares UUIDs, patterns match their text form. */
  uuid?: boolean;
}

export interface TimestampFieldSpec {
  kind: "timestamp";
  column: string;
}

/** A list of enum values the column must be one of; an empty list is refused. */
export interface EnumListFieldSpec {
  kind: "enumList";
  column: string;
  values: readonly string[];
}

export interface FilterGroupSpec {
  kind: "group";
  fields: Readonly<Record<string, FilterFieldSpec>>;
  /** A condition the row must meet whenever this group is given, even empty (for example its kind). */
  requires?: { column: string; equals: string } | { column: string; notNull: true };
}

export interface FilterLimits {
  /** Longest pattern (`like`, `ilike`, `notIlike`) accepted. @default 256 // characters */
  maxPatternLength: number;
  /** Most values accepted in `in` and `notIn`. @default 1_000 */
  maxListLength: number;
}

export const defaultFilterLimits: FilterLimits = { maxPatternLength: 256, maxListLength: 1_000 };
