import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from "graphql";

/**
 * Limits on the shape of a query, checked before execution. A deep or alias-heavy query costs the
 * server far more than it costs the client to send (alias amplification, recursive fragments), so
 * both are bounded up front with an error that names the limit.
 */
export interface QueryLimits {
  /** Deepest field nesting allowed. @default 15 */
  maxDepth: number;
  /** Most aliased fields allowed in one document. @default 30 */
  maxAliases: number;
  /** Most lexical tokens allowed in one document (enforced by the parser). @default 5_000 */
  maxTokens: number;
}

export const defaultQueryLimits: QueryLimits = { maxDepth: 15, maxAliases: 30, maxTokens: 5_000 };

function limitError(message: string, limit: string, allowed: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", limit, allowed } });
}

export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const depthOf = (selectionSet: SelectionSetNode, depth: number, seen: Set<string>): number => {
      let deepest = depth;
      for (const selection of selectionSet.selections) {
        if (deepest > maxDepth) return deepest;
        if (selection.kind === Kind.FIELD) {
          if (selection.selectionSet) deepest = Math.max(deepest, depthOf(selection.selectionSet, depth + 1, seen));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(selection.selectionSet, depth, seen));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (fragment && !seen.has(name)) {
            deepest = Math.max(deepest, depthOf(fragment.selectionSet, depth, new Set(seen).add(name)));
          }
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, 1, new Set());
        if (depth > maxDepth) {
          context.reportError(limitError(`The query is nested ${depth} levels deep; at most ${maxDepth} are allowed.`, "maxDepth", maxDepth));
        }
      },
    };
  };
}

export function aliasLimitRule(maxAliases: number) {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(field) {
        if (field.alias) aliases += 1;
      },
      Document: {
        leave() {
          if (aliases > maxAliases) {
            context.reportError(limitError(`The query uses ${aliases} aliases; at most ${maxAliases} are allowed.`, "maxAliases", maxAliases));
          }
        },
      },
    };
  };
}
