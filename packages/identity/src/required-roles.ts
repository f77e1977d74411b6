import { isInterfaceType, isObjectType, Kind, type ConstDirectiveNode, type DocumentNode, type GraphQLSchema } from "graphql";
import { requiredRoleIn } from "./requires-role-directive.js";

/**
 * Which role each type and field needs, read from `@requiresRole` in an SDL document (a subgraph
 * schema or the composed supergraph) or in a built schema. A field needs the roles declared on it
 * and on its type.
 */
export class RequiredRoles {
  readonly #byCoordinate = new Map<string, string>();

  static fromDocument(document: DocumentNode): RequiredRoles {
    const required = new RequiredRoles();
    for (const definition of document.definitions) {
      if (
        definition.kind !== Kind.OBJECT_TYPE_DEFINITION &&
        definition.kind !== Kind.OBJECT_TYPE_EXTENSION &&
        definition.kind !== Kind.INTERFACE_TYPE_DEFINITION &&
        definition.kind !== Kind.INTERFACE_TYPE_EXTENSION
      ) {
        continue;
      }
      const typeName = definition.name.value;
      required.#add(typeName, definition.directives);
      for (const field of definition.fields ?? []) required.#add(`${typeName}.${field.name.value}`, field.directives);
    }
    return required;
  }

  static fromSchema(schema: GraphQLSchema): RequiredRoles {
    const required = new RequiredRoles();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const node of [type.astNode, ...type.extensionASTNodes]) required.#add(type.name, node?.directives);
      for (const field of Object.values(type.getFields())) required.#add(`${type.name}.${field.name}`, field.astNode?.directives);
    }
    return required;
  }

  #add(coordinate: string, directives: readonly ConstDirectiveNode[] | undefined): void {
    const role = requiredRoleIn(directives);
    if (role !== undefined) this.#byCoordinate.set(coordinate, role);
  }

  /** Roles `typeName.fieldName` needs: its own and its type's. */
  rolesFor(typeName: string, fieldName: string): string[] {
    const roles: string[] = [];
    const ofType = this.#byCoordinate.get(typeName);
    if (ofType !== undefined) roles.push(ofType);
    const ofField = this.#byCoordinate.get(`${typeName}.${fieldName}`);
    if (ofField !== undefined && ofField !== ofType) roles.push(ofField);
    return roles;
  }

  /** Every role some type or field requires, sorted: the roles this schema declares. */
  declaredRoles(): string[] {
    return [...new Set(this.#byCoordinate.values())].sort();
  }

  get size(): number {
    return this.#byCoordinate.size;
  }
}
