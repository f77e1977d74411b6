import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

/**
 * How to continue an owning subgraph's subscription where it stopped: the rewritten primary
 * operation asks each event for its cursor (under `cursorAlias`) and takes the position to start
 * after in the variable `afterVariable`.
 */
export interface ResumableOperation {
  operation: string;
  /** The response key of the root field in the subgraph's results. */
  responseKey: string;
  cursorAlias: string;
  afterVariable: string;
  /** The client's own `after`: a variable's name, or a literal (null when absent). */
  clientAfter: { variable: string } | { value: string | null };
}

/**
 * The gateway's resumption convention, independent of any one domain: a subscription root field
 * that takes `after: String` and returns a type with `eventCursor: String` is an endless, ordered
 * stream that can be continued after any event it sent. For such a field the primary operation is
 * rewritten so the gateway learns each event's cursor and can subscribe again after the last one
 * when the subgraph's connection drops (a restart, a deploy), instead of ending the client's
 * subscription. Returns undefined for any other field.
 */
export function resumableOperation(primaryOperation: string, schema: GraphQLSchema): ResumableOperation | undefined {
  const document = parse(primaryOperation);
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const field = operation?.selectionSet.selections[0];
  if (!operation || field?.kind !== Kind.FIELD || !field.selectionSet) return undefined;
  const definition = schema.getSubscriptionType()?.getFields()[field.name.value];
  const afterArgument = definition?.args.find((argument) => argument.name === "after");
  const returned = definition ? getNamedType(definition.type) : undefined;
  if (!afterArgument || String(afterArgument.type) !== "String") return undefined;
  if (!(isObjectType(returned) || isInterfaceType(returned)) || String(returned.getFields().eventCursor?.type) !== "String") return undefined;

  const cursorAlias = unusedName("resumeEventCursor", responseKeys(field.selectionSet));
  const existing = field.arguments?.find((argument) => argument.name.value === "after")?.value;
  const variables = new Set((operation.variableDefinitions ?? []).map((variable) => variable.variable.name.value));
  const clientAfter = clientValue(existing);
  const afterVariable = "variable" in clientAfter ? clientAfter.variable : unusedName("resumeAfter", variables);
  const rewrittenField: FieldNode = {
    ...field,
    arguments: [
      ...(field.arguments ?? []).filter((argument) => argument.name.value !== "after"),
      { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "after" }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: afterVariable } } },
    ],
    selectionSet: {
      ...field.selectionSet,
      selections: [
        ...field.selectionSet.selections,
        { kind: Kind.FIELD, alias: { kind: Kind.NAME, value: cursorAlias }, name: { kind: Kind.NAME, value: "eventCursor" } },
      ],
    },
  };
  const rewritten: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: [
      ...(operation.variableDefinitions ?? []),
      ...("variable" in clientAfter
        ? []
        : [
            {
              kind: Kind.VARIABLE_DEFINITION,
              variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: afterVariable } },
              type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "String" } },
            } as const,
          ]),
    ],
    selectionSet: { ...operation.selectionSet, selections: [rewrittenField] },
  };
  return {
    operation: print({ ...document, definitions: document.definitions.map((node) => (node === operation ? rewritten : node)) }),
    responseKey: field.alias?.value ?? field.name.value,
    cursorAlias,
    afterVariable,
    clientAfter,
  };
}

function clientValue(value: ValueNode | undefined): ResumableOperation["clientAfter"] {
  if (value?.kind === Kind.VARIABLE) return { variable: value.name.value };
  return { value: value?.kind === Kind.STRING ? value.value : null };
}

/** The response keys of a selection, through inline fragments (they merge into the same object). */
function responseKeys(selectionSet: SelectionSetNode): Set<string> {
  const keys = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) keys.add(selection.alias?.value ?? selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) for (const key of responseKeys(selection.selectionSet)) keys.add(key);
  }
  return keys;
}

function unusedName(base: string, taken: Set<string>): string {
  let name = base;
  for (let index = 2; taken.has(name); index += 1) name = `${base}${index}`;
  return name;
}
