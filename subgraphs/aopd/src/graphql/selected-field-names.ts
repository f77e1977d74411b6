import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

/**
 * The names of the fields an operation selects on the objects this field returns, through inline
 * fragments and fragment spreads of any type condition (a union over the proof types is enough
 * for choosing columns). With graphql-js and graphql-jit alike, `info.fieldNodes` and
 * `info.fragments` are the validated operation's own nodes.
 */
export function selectedFieldNames(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment: FragmentDefinitionNode | undefined = info.fragments[selection.name.value];
        walk(fragment?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return names;
}
