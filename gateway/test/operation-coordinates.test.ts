import { buildSchema, parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { operationCoordinates } from "../src/usage/operation-coordinates.js";

const schema = buildSchema(`
  type Query { proofs(filter: ProofFilter, first: Int): [Proof!]! node(id: ID!): Node }
  interface Node { id: ID! }
  type Proof implements Node { id: ID! status: Status! owner: Owner }
  type Owner { name: String }
  enum Status { OPEN VERIFIED FAILED }
  input ProofFilter { status: [Status!] owner: OwnerFilter }
  input OwnerFilter { name: String }
`);

const coordinatesOf = (source: string) => {
  const document = parse(source);
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === "OperationDefinition");
  if (!operation) throw new Error("no operation");
  return operationCoordinates(schema, document, operation);
};

describe("the schema coordinates an operation uses", () => {
  it("names the types, the fields selected, the arguments given and the enum values and input fields written", () => {
    const used = coordinatesOf('{ proofs(filter: { status: [VERIFIED], owner: { name: "a" } }) { id status owner { name } __typename } }');
    expect(used.document).toEqual(
      [
        "Owner",
        "Owner.name",
        "OwnerFilter",
        "OwnerFilter.name",
        "Proof",
        "Proof.id",
        "Proof.owner",
        "Proof.status",
        "ProofFilter",
        "ProofFilter.owner",
        "ProofFilter.status",
        "Query",
        "Query.proofs",
        "Query.proofs.filter",
        "Status",
        "Status.VERIFIED",
        "String",
        "ID",
      ].sort(),
    );
    expect(used.document).not.toContain("Status.FAILED");
    expect(used.document).not.toContain("Query.proofs.first");
  });

  it("follows fragments and inline fragments on the type they select on, and leaves directives' arguments out", () => {
    const used = coordinatesOf("query Q($skip: Boolean!) { node(id: 1) { ...N ... on Proof { status @skip(if: $skip) } } } fragment N on Node { id }");
    expect(used.document).toEqual(expect.arrayContaining(["Query.node", "Query.node.id", "Node", "Node.id", "Proof", "Proof.status", "Boolean"]));
    expect(used.document.some((coordinate) => coordinate.includes("skip") || coordinate.includes(".if"))).toBe(false);
  });

  it("reads values given in variables per request, only for variables that can hold input fields or enum values", () => {
    const used = coordinatesOf("query Q($filter: ProofFilter, $first: Int) { proofs(filter: $filter, first: $first) { id } }");
    expect(used.document).toEqual(expect.arrayContaining(["ProofFilter", "Query.proofs.filter", "Query.proofs.first"]));
    expect(used.variableCoordinates({ filter: { status: ["OPEN", "FAILED"], owner: { name: "x" } }, first: 3 }).sort()).toEqual(
      ["OwnerFilter", "OwnerFilter.name", "ProofFilter", "ProofFilter.owner", "ProofFilter.status", "Status.FAILED", "Status.OPEN"].sort(),
    );
    // Values that are not of the schema (the request fails validation of variables) name nothing.
    expect(used.variableCoordinates({ filter: { status: ["NOPE"], unknown: 1 } })).toEqual(["ProofFilter", "ProofFilter.status"]);
    expect(coordinatesOf("{ proofs(first: 1) { id } }").variableCoordinates({})).toEqual([]);
  });
});
