/* eslint-disable @typescript-eslint/no-explicit-any -- federation-internals types a directive by the element it sits on; the writer reads only its `if` argument. */
import {
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  isSubtype,
  isValidLeafValue,
  typenameFieldName,
  Variable,
  type CompositeType,
  type Directive,
  type Operation,
  type OperationElement,
  type OutputType,
  type ScalarType,
  type EnumType,
  type Schema,
  type SelectionSet,
} from "@apollo/federation-internals";

/** Writes one value as JSON, or answers `undefined` when the value is not what a clean answer holds. */
type ValueWriter = (value: unknown) => string | undefined;

interface CollectedField {
  responseName: string;
  /** `"responseName":`, escaped once. */
  key: string;
  isTypename: boolean;
  type: OutputType;
  /** The sub-selections of every occurrence of this response name, in order. */
  selectionSets: SelectionSet[];
}

/**
 * The answer's `data` written as JSON straight from the data the plan's fetches merged, in one
 * walk: what `@apollo/gateway` does in two (`computeResponse` builds a new object tree in the
 * operation's order, then Apollo Server's `JSON.stringify` walks it again).
 *
 * It follows `computeResponse` (resultShaping.ts of @apollo/gateway 2.14) rule for rule over the
 * same `Operation` and schema, for the answers it can write without an error: fields in the
 * operation's order, `__typename` from the data or the parent type, fragments by the data's
 * `__typename`, `@skip`/`@include`, leaf values checked with the same `isValidLeafValue`. Where
 * `computeResponse` would record an error (a null in a non-null place, an invalid leaf value, an
 * unknown `__typename`) or assert, the writer gives up (`undefined`) and the caller runs
 * `computeResponse` itself, so that answers with errors are Apollo's own.
 *
 * What is compiled: for each selection set, parent type, runtime `__typename` and `@skip`/`@include`
 * outcome, the list of response names to write with their escaped keys and value writers, built
 * once and kept with the plan; the directive and type lookups `computeResponse` makes for every
 * field of every row are made once.
 */
export class ResponseWriter {
  readonly #schema: Schema;
  readonly #variables: Record<string, unknown>;
  readonly #rootType: CompositeType;
  readonly #operation: Operation;
  readonly #rootFields = new Map<string, CollectedField[]>();

  /** `conditionVariables`: the `@skip`/`@include` variable values this writer is for (see `conditionSignature`). */
  constructor(operation: Operation, conditionVariables: Record<string, unknown>) {
    this.#operation = operation;
    this.#schema = operation.schema();
    this.#variables = conditionVariables;
    this.#rootType = this.#schema.schemaDefinition.rootType(operation.rootKind)!;
  }

  /** The JSON of `data`, or `undefined` when `computeResponse` must shape this answer. */
  write(input: Record<string, unknown>): string | undefined {
    return this.#writeObject(input, this.#rootFields, [this.#operation.selectionSet], this.#rootType);
  }

  /** `fieldLists`: the field lists of this place in the operation, by parent type and `__typename`. */
  #writeObject(
    input: Record<string, unknown>,
    fieldLists: Map<string, CollectedField[]>,
    selectionSets: SelectionSet[],
    parentType: CompositeType,
  ): string | undefined {
    const fields = this.#fieldsFor(fieldLists, selectionSets, parentType, input[typenameFieldName]);
    if (!fields) return undefined;
    let json = "{";
    for (let index = 0; index < fields.length; index += 1) {
      const field = fields[index]!;
      let value: string | undefined;
      if (field.isTypename) {
        value = this.#typename(input, field.responseName, parentType);
      } else {
        const own = Object.prototype.hasOwnProperty.call(input, field.responseName) ? input[field.responseName] : undefined;
        value = this.#writerFor(field)(own ?? null);
      }
      if (value === undefined) return undefined;
      json += index === 0 ? field.key + value : "," + field.key + value;
    }
    return json + "}";
  }

  #typename(input: Record<string, unknown>, responseName: string, parentType: CompositeType): string | undefined {
    let value = (Object.prototype.hasOwnProperty.call(input, responseName) ? input[responseName] : undefined) ?? null;
    if (value === null && responseName !== typenameFieldName) value = input[typenameFieldName] ?? null;
    const type = value !== null && typeof value === "string" ? (this.#schema.type(value) ?? parentType) : parentType;
    return isObjectType(type) ? JSON.stringify(type.name) : undefined;
  }

  /** The response names an object of `parentType` with `typename` writes, in order; `undefined` for anything unexpected. */
  #fieldsFor(
    fieldLists: Map<string, CollectedField[]>,
    selectionSets: SelectionSet[],
    parentType: CompositeType,
    typename: unknown,
  ): CollectedField[] | undefined {
    if (typename !== undefined && typeof typename !== "string") return undefined;
    const cacheKey = typename === undefined ? parentType.name : `${parentType.name}\n${typename}`;
    let fields = fieldLists.get(cacheKey);
    if (!fields) {
      fields = [];
      const byName = new Map<string, CollectedField>();
      for (const selectionSet of selectionSets) this.#collect(selectionSet, parentType, typename, fields, byName);
      fieldLists.set(cacheKey, fields);
    }
    return fields;
  }

  #collect(
    selectionSet: SelectionSet,
    parentType: CompositeType,
    typename: string | undefined,
    fields: CollectedField[],
    byName: Map<string, CollectedField>,
  ): void {
    for (const selection of selectionSet.selections()) {
      if (this.#skipped(selection.element)) continue;
      if (selection.kind === "FieldSelection") {
        const field = selection.element;
        const responseName = field.responseName();
        const existing = byName.get(responseName);
        if (existing) {
          if (selection.selectionSet) existing.selectionSets.push(selection.selectionSet);
          continue;
        }
        // Introspection is never compiled (the plan's executor leaves such operations to Apollo).
        const collected: CollectedField = {
          responseName,
          key: `${JSON.stringify(responseName)}:`,
          isTypename: field.name === typenameFieldName,
          type: field.definition.type!,
          selectionSets: selection.selectionSet ? [selection.selectionSet] : [],
        };
        byName.set(responseName, collected);
        fields.push(collected);
      } else {
        const condition = selection.element.typeCondition;
        if (this.#conditionApplies(condition, typename, parentType)) this.#collect(selection.selectionSet, condition ?? parentType, typename, fields, byName);
      }
    }
  }

  #conditionApplies(condition: CompositeType | undefined, typename: string | undefined, parentType: CompositeType): boolean {
    if (!condition) return true;
    if (typename) {
      const type = this.#schema.type(typename);
      return !!type && isSubtype(condition, type);
    }
    return isSubtype(condition, parentType);
  }

  #skipped(element: OperationElement): boolean {
    const skip = element.appliedDirectivesOf(this.#schema.skipDirective())[0];
    const include = element.appliedDirectivesOf(this.#schema.includeDirective())[0];
    return (!!skip && this.#ifValue(skip)) || (!!include && !this.#ifValue(include));
  }

  #ifValue(directive: Directive<any, { if: boolean | Variable }>): boolean {
    const condition = directive.arguments().if;
    return condition instanceof Variable ? this.#variables[condition.name] === true : condition;
  }

  /** One writer per field type and sub-selection (the same field of every row shares it). */
  #writerFor(field: CollectedField): ValueWriter {
    const cached = (field as CollectedField & { writer?: ValueWriter }).writer;
    if (cached) return cached;
    const writer = this.#valueWriter(field.type, field.selectionSets);
    (field as CollectedField & { writer?: ValueWriter }).writer = writer;
    return writer;
  }

  #valueWriter(type: OutputType, selectionSets: SelectionSet[]): ValueWriter {
    if (isNonNullType(type)) {
      const inner = this.#valueWriter(type.ofType, selectionSets);
      return (value) => {
        const written = inner(value);
        return written === "null" ? undefined : written;
      };
    }
    if (isListType(type)) {
      const item = this.#valueWriter(type.ofType, selectionSets);
      return (value) => {
        if (value === null) return "null";
        if (!Array.isArray(value)) return undefined;
        let json = "[";
        for (let index = 0; index < value.length; index += 1) {
          // computeResponse asserts on a hole in a list: Apollo's own shaping answers that.
          if (value[index] === undefined) return undefined;
          const written = item(value[index]);
          if (written === undefined) return undefined;
          json += index === 0 ? written : "," + written;
        }
        return json + "]";
      };
    }
    if (isCompositeType(type)) {
      const fieldLists = new Map<string, CollectedField[]>();
      return (value) => {
        if (value === null) return "null";
        if (typeof value !== "object") return undefined;
        const object = value as Record<string, unknown>;
        const typename = object[typenameFieldName];
        let objectType: CompositeType = type;
        if (typename !== undefined) {
          if (typeof typename !== "string") return undefined;
          const named = this.#schema.type(typename);
          if (!named || !isCompositeType(named)) return undefined;
          objectType = named;
        }
        return this.#writeObject(object, fieldLists, selectionSets, objectType);
      };
    }
    const leaf = type as ScalarType | EnumType;
    const schema = this.#schema;
    return (value) => {
      if (value === null) return "null";
      return isValidLeafValue(schema, value, leaf) ? JSON.stringify(value) : undefined;
    };
  }
}

/** The variables an operation's `@skip` and `@include` read: answers with the same values of these share one `ResponseWriter`. */
export function conditionVariableNames(operation: Operation): string[] {
  const names = new Set<string>();
  const schema = operation.schema();
  const visit = (selectionSet: SelectionSet) => {
    for (const selection of selectionSet.selections()) {
      for (const directive of [
        ...selection.element.appliedDirectivesOf(schema.skipDirective()),
        ...selection.element.appliedDirectivesOf(schema.includeDirective()),
      ]) {
        const condition = (directive as Directive<any, { if: boolean | Variable }>).arguments().if;
        if (condition instanceof Variable) names.add(condition.name);
      }
      if (selection.selectionSet) visit(selection.selectionSet);
    }
  };
  visit(operation.selectionSet);
  return [...names];
}
