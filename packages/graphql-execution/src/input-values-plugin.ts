/**
 * Threat: input that GraphQL accepts but the database cannot store or compare turns into an
 * internal error, logged with a stack per request: a NUL byte in any string (PostgreSQL text
 * cannot hold one), or at the gateway, where custom scalars are opaque, a `DateTime` that is not a
 * real instant ("yesterday", no offset, year 99999). Each argument value, literal or from a
 * variable, is checked after the operation is resolved and before anything runs; the first bad
 * one refuses the whole request with HTTP 400 and `BAD_USER_INPUT` naming the field path
 * (`filter.is.any.createdAt.gt`, or from the variable: `f.is.any.createdAt.gt`).
 */
import {
  GraphQLError,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type ValueNode,
} from "graphql";
import { UserInputError } from "@compliance-graph/errors";
import { operationCheckPlugin, type OperationCheck } from "./operation-check.js";

/** Checks one value of a scalar; throws an error whose message says what is allowed. */
export type ScalarCheck = (value: unknown) => unknown;

const noNulByte: ScalarCheck = (value) => {
  if (typeof value === "string" && value.includes("\u0000")) throw new Error("must not contain a NUL character (U+0000).");
};

/** The input-value check as an operation check: the same function over HTTP (`inputValuesPlugin`) and over WebSocket (`prepareOperation`). */
export function inputValuesCheck(options: { scalars?: Record<string, ScalarCheck> } = {}): OperationCheck {
  const checks: Record<string, ScalarCheck> = { String: noNulByte, ID: noNulByte, ...options.scalars };
  const checkScalar = (name: string, value: unknown, path: string) => {
    const check = checks[name];
    if (!check || value === null || value === undefined) return;
    try {
      if (name !== "String" && name !== "ID") noNulByte(value);
      check(value);
    } catch (error) {
      const refused = new UserInputError(path, (error as Error).message);
      throw new GraphQLError(refused.message, { originalError: refused, extensions: { ...refused.extensions, http: { status: 400 } } });
    }
  };
  const checkValue = (value: unknown, type: GraphQLInputType, path: string): void => {
    if (value === null || value === undefined) return;
    const named = isNonNullType(type) ? type.ofType : type;
    if (isListType(named)) {
      if (Array.isArray(value)) value.forEach((item, index) => checkValue(item, named.ofType, `${path}.${index}`));
      else checkValue(value, named.ofType, path);
    } else if (isInputObjectType(named)) {
      if (typeof value !== "object") return;
      const fields = named.getFields();
      for (const [name, item] of Object.entries(value)) {
        const field = fields[name];
        if (field) checkValue(item, field.type, `${path}.${name}`);
      }
    } else if (isScalarType(named)) {
      checkScalar(named.name, value, path);
    }
  };
  const checkLiteral = (node: ValueNode, type: GraphQLInputType, path: string): void => {
    const named = isNonNullType(type) ? type.ofType : type;
    if (node.kind === Kind.VARIABLE || node.kind === Kind.NULL) return; // variables are checked on their own
    if (isListType(named)) {
      if (node.kind === Kind.LIST) node.values.forEach((item, index) => checkLiteral(item, named.ofType, `${path}.${index}`));
      else checkLiteral(node, named.ofType, path);
    } else if (isInputObjectType(named)) {
      if (node.kind !== Kind.OBJECT) return;
      const fields = named.getFields();
      for (const field of node.fields) {
        const definition = fields[field.name.value];
        if (definition) checkLiteral(field.value, definition.type, `${path}.${field.name.value}`);
      }
    } else if (isScalarType(named) && node.kind === Kind.STRING) {
      checkScalar(named.name, node.value, path);
    }
  };

  // The literals of a document are the same on every request: once a document passed, later
  // requests with it (Apollo Server hands the cached, parsed document back) check only their
  // variables. A document that failed is checked again, and fails again, on every request.
  const literalsPassed = new WeakSet<DocumentNode>();

  return ({ schema, document, operation, variables }) => {
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
      const name = definition.variable.name.value;
      if (type) checkValue(variables[name], type, name);
    }
    if (literalsPassed.has(document)) return;
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Argument(node) {
          const argument = typeInfo.getArgument();
          if (argument) checkLiteral(node.value, argument.type, node.name.value);
        },
      }),
    );
    literalsPassed.add(document);
  };
}

export function inputValuesPlugin(options: { scalars?: Record<string, ScalarCheck> } = {}) {
  return operationCheckPlugin(inputValuesCheck(options));
}
