import { describe, expect, it } from "vitest";
import { UserInputError } from "@compliance-graph/errors";
import { defaultFilterLimits, validateFilter, type FilterGroupSpec } from "../src/index.js";

const spec: FilterGroupSpec = {
  kind: "group",
  fields: {
    name: { kind: "string", column: "name" },
    at: { kind: "timestamp", column: "at" },
    state: { kind: "enumList", column: "state", values: ["OPEN", "DONE"] },
    done: { kind: "group", requires: { column: "state", equals: "DONE" }, fields: { note: { kind: "string", column: "note" } } },
  },
};

describe("validateFilter", () => {
  it("accepts what the compiler compiles, without a query", () => {
    expect(() => validateFilter(spec, undefined, "filter")).not.toThrow();
    expect(() =>
      validateFilter(spec, { name: { ilike: "%a%", in: ["x"] }, at: { gte: new Date(0) }, state: ["OPEN"], done: { note: { isNull: true } } }, "filter"),
    ).not.toThrow();
  });

  it("throws the compiler's own UserInputError, naming the field under the given path", () => {
    const refusal = (input: unknown, path = "filter", limits = defaultFilterLimits) => {
      try {
        validateFilter(spec, input, path, limits);
      } catch (error) {
        expect(error).toBeInstanceOf(UserInputError);
        return (error as UserInputError).message;
      }
      return undefined;
    };
    expect(refusal({ state: [] })).toBe("filter.state: at least one value must be given; allowed: OPEN, DONE.");
    expect(refusal({ done: { nope: {} } }, "where")).toBe("where.done.nope: is not a filter field; allowed: note.");
    expect(refusal({ name: { like: "abc" } }, "filter", { ...defaultFilterLimits, maxPatternLength: 2 })).toBe(
      "filter.name.like: the pattern has 3 characters; at most 2 are allowed.",
    );
    expect(refusal({ at: { lt: "yesterday" } })).toBe("filter.at.lt: must be an RFC 3339 timestamp.");
  });
});
