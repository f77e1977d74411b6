import { readFileSync } from "node:fs";
import { buildASTSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, parse } from "graphql";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { describe, expect, it } from "vitest";
import { aopdSchemaFile, assembleAopdSdl } from "../src/schema/assemble-aopd-sdl.js";
import { proofFilterSpec } from "../src/proofs/proof-filter-spec.js";
import type { FilterGroupSpec } from "@compliance-graph/filter";

const sdl = readFileSync(aopdSchemaFile, "utf8");
const schema = buildSubgraphSchema({ typeDefs: parse(sdl) });

describe("the aopd contract", () => {
  it("is committed as generated (run `npm run generate` after changing a source)", () => {
    expect(sdl).toBe(assembleAopdSdl());
  });

  it("describes every type, field, argument and enum value of its own", () => {
    const undocumented: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (/^(__|_|link__|federation__)/.test(type.name) || ["String", "Int", "Boolean", "ID", "Float"].includes(type.name)) continue;
      // Root operation types are described through their fields.
      const isRoot = ["Query", "Mutation", "Subscription"].includes(type.name);
      if (!type.description && !isRoot) undocumented.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (field.name.startsWith("_")) continue;
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
          if ("args" in field) for (const arg of field.args) if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) undocumented.push(`${type.name}.${value.name}`);
    }
    expect(undocumented).toEqual([]);
  });

  it("has the spec's arguments, defaults, nullability and deprecations", () => {
    const aopd = schema.getType("Aopd");
    if (!isObjectType(aopd)) throw new Error("Aopd is not an object type");
    const fields = aopd.getFields();
    const signature = (name: string) => {
      const field = fields[name]!;
      return `${field.args.map((arg) => `${arg.name}: ${String(arg.type)}${arg.defaultValue !== undefined ? ` = ${String(arg.defaultValue)}` : ""}`).join(", ")} -> ${String(field.type)}`;
    };
    expect(signature("configuration")).toBe(" -> AopdConfiguration");
    expect(signature("proof")).toBe("id: ID! -> AopdProof!");
    expect(signature("proofForAddress")).toBe("address: String! -> AopdProof");
    expect(signature("proofForXpub")).toBe("xpub: String! -> AopdSignatureProof");
    // The spec's four arguments in its order; `after` (deep paging by cursor) is an optional extension after them.
    expect(signature("proofs")).toBe(
      "offset: Int! = 0, limit: Int! = 2147483647, filter: AopdProofFilterInput, sortOrder: [AopdProofSortInput!], after: String -> [AopdProof!]!",
    );
    expect(signature("proofsForCustomer")).toBe("customerId: ID!, offset: Int! = 0, limit: Int! = 2147483647 -> [AopdProof!]!");
    expect(signature("proofsCount")).toBe("filter: AopdProofFilterInput -> Int!");
    for (const name of ["lang", "theme", "logo"]) expect(signature(name)).toBe(" -> Binary!");
    for (const name of ["proof", "proofForAddress", "proofForXpub", "proofsForCustomer"]) {
      expect(fields[name]!.deprecationReason, name).toMatch(
        /^Removed in the next release\. Use `proofs` with the filter `is\.[a-z]+\.[a-zA-Z.]+` using `ilike`\.$/,
      );
    }
    const format = schema.getType("AopdAddressFormat");
    if (!isEnumType(format)) throw new Error("AopdAddressFormat is not an enum");
    expect(
      format
        .getValues()
        .filter((value) => value.deprecationReason)
        .map((value) => value.name),
    ).toEqual(["ANY", "STANDARD"]);
    const status = schema.getType("AopdAnyProofConditionInput");
    if (!isInputObjectType(status)) throw new Error("not an input");
    expect(String(status.getFields().status!.type)).toBe("[AopdProofStatus!]");
    expect(String(status.getFields().address!.type)).toBe("CommonStringConditionInput");
  });

  it("names the same filter fields in the schema and in the compiler's spec", () => {
    const plain = buildASTSchema(parse(sdl.replace(/^extend schema[\s\S]*?\n\n/m, "")), { assumeValidSDL: true });
    const compare = (typeName: string, spec: FilterGroupSpec) => {
      const type = plain.getType(typeName);
      if (!isInputObjectType(type)) throw new Error(`${typeName} is not an input type`);
      expect(Object.keys(type.getFields()).sort(), typeName).toEqual(Object.keys(spec.fields).sort());
    };
    const is = proofFilterSpec.fields.is as FilterGroupSpec;
    compare("AopdProofFilterInput", proofFilterSpec);
    compare("AopdProofIsInput", is);
    compare("AopdAnyProofConditionInput", is.fields.any as FilterGroupSpec);
    compare("AopdSignatureProofConditionInput", is.fields.signature as FilterGroupSpec);
    compare("AopdSatoshiProofConditionInput", is.fields.satoshi as FilterGroupSpec);
  });
});
