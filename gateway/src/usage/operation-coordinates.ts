import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";

/**
 * The schema coordinates one operation uses, in the registry's form (docs/schema-registry.md):
 * each type it touches (`AopdProof`), each field selected on the type it was selected on
 * (`AopdProof.status`), each argument given (`Query.aopdProofs.filter`), each input field and enum
 * value written in the document (`AopdProofFilter.status`, `AopdProofStatus.VERIFIED`).
 * Computed once per operation; values given in variables differ per request, so they are read by
 * `variableCoordinates`, which only walks the variables whose types can hold any.
 */
export interface OperationCoordinates {
  /** What the document itself uses, sorted. */
  readonly document: readonly string[];
  /** The coordinates of the values given in this request's variables (input fields, enum values); empty when none can. */
  variableCoordinates(variables: Readonly<Record<string, unknown>> | undefined): string[];
}

export function operationCoordinates(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationCoordinates {
  const found = new Set<string>();
  const addType = (type: GraphQLInputType | ReturnType<TypeInfo["getType"]> | undefined) => {
    const named = type ? getNamedType(type) : undefined;
    if (named && !named.name.startsWith("__")) found.add(named.name);
  };
  // The operation and the fragments it spreads (the document may hold other operations).
  const fragments = new Map(
    document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])),
  );
  const reached = new Set<string>();
  const pending: NonNullable<ReturnType<typeof fragments.get>>[] = [];
  // TypeInfo follows one walk: each fragment gets a walk of its own, after the one that spread it.
  const walk = (node: OperationDefinitionNode | NonNullable<ReturnType<typeof fragments.get>>) => {
    const typeInfo = new TypeInfo(schema);
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        OperationDefinition() {
          addType(typeInfo.getType());
        },
        Field(field) {
          const parent = typeInfo.getParentType();
          const name = field.name.value;
          if (!parent || name.startsWith("__")) return;
          found.add(parent.name);
          found.add(`${parent.name}.${name}`);
          addType(typeInfo.getType());
        },
        Argument(argument) {
          const parent = typeInfo.getParentType();
          const field = typeInfo.getFieldDef();
          if (!parent || !field || typeInfo.getDirective()) return;
          found.add(`${parent.name}.${field.name}.${argument.name.value}`);
          addType(typeInfo.getInputType() ?? undefined);
        },
        ObjectField(objectField) {
          const parent = typeInfo.getParentInputType();
          const named = parent ? getNamedType(parent) : undefined;
          if (named && isInputObjectType(named)) found.add(`${named.name}.${objectField.name.value}`);
          addType(typeInfo.getInputType() ?? undefined);
        },
        EnumValue(value) {
          const type = typeInfo.getInputType();
          const named = type ? getNamedType(type) : undefined;
          if (named && isEnumType(named)) found.add(`${named.name}.${value.value}`);
        },
        FragmentSpread(spread) {
          const fragment = fragments.get(spread.name.value);
          if (fragment && !reached.has(fragment.name.value)) {
            reached.add(fragment.name.value);
            pending.push(fragment);
          }
        },
      }),
    );
  };
  walk(operation);
  for (let next = pending.pop(); next; next = pending.pop()) walk(next);

  // Variables whose type can carry input fields or enum values: the only ones read per request.
  const readers: [string, GraphQLInputType][] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue;
    addType(type);
    const named = getNamedType(type);
    if (isInputObjectType(named) || isEnumType(named)) readers.push([definition.variable.name.value, type]);
  }
  return {
    document: [...found].sort(),
    variableCoordinates(variables) {
      if (readers.length === 0 || !variables) return [];
      const given = new Set<string>();
      for (const [name, type] of readers) valueCoordinates(type, variables[name], given, 0);
      return [...given];
    },
  };
}

/**
 * The coordinate texts of each input type's members (`AopdProofFilter.status`,
 * `AopdProofStatus.VERIFIED`), made once per type and member: a request's variables then add
 * strings that already exist to its set, rather than building each anew.
 */
const memberCoordinates = new WeakMap<GraphQLInputType, Map<string, string>>();
function memberCoordinate(type: GraphQLInputType & { name: string }, member: string): string {
  let members = memberCoordinates.get(type);
  if (!members) memberCoordinates.set(type, (members = new Map()));
  let coordinate = members.get(member);
  if (coordinate === undefined) members.set(member, (coordinate = `${type.name}.${member}`));
  return coordinate;
}

/** Deep enough for any input a sane client sends; the walk of a hostile one stops there. */
const maxInputDepth = 16;

function valueCoordinates(type: GraphQLInputType, value: unknown, into: Set<string>, depth: number): void {
  if (value === null || value === undefined || depth > maxInputDepth) return;
  if (isNonNullType(type)) return valueCoordinates(type.ofType, value, into, depth);
  if (isListType(type)) {
    if (Array.isArray(value)) for (const item of value as unknown[]) valueCoordinates(type.ofType, item, into, depth + 1);
    else valueCoordinates(type.ofType, value, into, depth + 1);
    return;
  }
  if (isEnumType(type)) {
    if (typeof value === "string" && type.getValue(value)) into.add(memberCoordinate(type, value));
    return;
  }
  if (isInputObjectType(type) && typeof value === "object") {
    const fields = type.getFields();
    into.add(type.name);
    for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
      const field = fields[key];
      if (!field) continue;
      into.add(memberCoordinate(type, key));
      valueCoordinates(field.type, fieldValue, into, depth + 1);
    }
  }
}
