import { defaultFieldResolver, isInterfaceType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { ForbiddenError } from "@compliance-graph/errors";
import type { Identity } from "./identity.js";
import { RequiredRoles } from "./required-roles.js";

/** What `enforceRequiredRoles` needs of a subgraph's context value. */
export interface ContextWithIdentity {
  identity?: Pick<Identity, "roles">;
}

/**
 * The subgraph's own check of `@requiresRole`, behind the gateway's: a resolver of a field that
 * needs a role (declared on the field, on its type, or on the interface field it implements)
 * throws `ForbiddenError` naming the role and the field when the caller's identity lacks it.
 * Defence in depth: a gateway misconfiguration or a supergraph out of step with the subgraph does
 * not open a field. Changes the schema's resolvers in place and returns the schema.
 */
export function enforceRequiredRoles(schema: GraphQLSchema): GraphQLSchema {
  const required = RequiredRoles.fromSchema(schema);
  if (required.size === 0) return schema;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    const interfaces = type.getInterfaces().filter(isInterfaceType);
    for (const field of Object.values(type.getFields())) {
      const needed = new Set(required.rolesFor(type.name, field.name));
      for (const parent of interfaces) {
        if (parent.getFields()[field.name]) for (const role of required.rolesFor(parent.name, field.name)) needed.add(role);
      }
      if (needed.size === 0) continue;
      const coordinate = `${type.name}.${field.name}`;
      const resolve: GraphQLFieldResolver<unknown, ContextWithIdentity> = field.resolve ?? defaultFieldResolver;
      const roles = [...needed];
      field.resolve = (source, args, context, info) => {
        const granted = context?.identity?.roles ?? [];
        const missing = roles.find((role) => !granted.includes(role));
        if (missing !== undefined) throw new ForbiddenError(missing, coordinate);
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
