import {
  getNamedType,
  isAbstractType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import type { RequiredRoles } from "./required-roles.js";

export interface MissingRole {
  role: string;
  /** `Type.field` that needs it. */
  coordinate: string;
}

/**
 * The first role that `operation` (with the document's fragments) needs and `granted` lacks, or
 * undefined when the caller may run it. A field selected on an interface or union needs what any
 * of its possible object types declares for that field: the gateway decides before it knows which
 * concrete type comes back, so it errs on the side of refusing.
 */
export function findMissingRole(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  required: RequiredRoles,
  granted: readonly string[],
): MissingRole | undefined {
  if (required.size === 0) return undefined;
  const typeInfo = new TypeInfo(schema);
  let missing: MissingRole | undefined;
  const check = (typeName: string, fieldName: string) => {
    for (const role of required.rolesFor(typeName, fieldName)) {
      if (!granted.includes(role)) {
        missing = { role, coordinate: `${typeName}.${fieldName}` };
        return;
      }
    }
  };
  const visitor = visitWithTypeInfo(typeInfo, {
    Field(node) {
      const fieldName = node.name.value;
      const parent = typeInfo.getParentType();
      if (fieldName.startsWith("__") || !parent) return;
      const parentType = getNamedType(parent);
      check(parentType.name, fieldName);
      if (missing === undefined && isAbstractType(parentType)) {
        for (const possible of schema.getPossibleTypes(parentType)) {
          if (missing === undefined && possible.getFields()[fieldName]) check(possible.name, fieldName);
        }
      }
      if (missing !== undefined) return false;
      return undefined;
    },
  });
  visit(operation, visitor);
  for (const definition of document.definitions) {
    if (missing !== undefined) break;
    if (definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition, visitor);
  }
  return missing;
}
