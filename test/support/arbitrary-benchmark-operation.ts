import fc from "fast-check";

/** The federation benchmark's API schema, as the generator needs it: each type's fields and what they return. */
const types: Record<string, Record<string, { type?: string; list?: boolean; args?: () => fc.Arbitrary<string> }>> = {
  Query: {
    me: { type: "User" },
    user: { type: "User", args: () => fc.integer({ min: 1, max: 7 }).map((id) => `(id: "${id}")`) },
    users: { type: "User", list: true },
    topProducts: {
      type: "Product",
      list: true,
      args: () =>
        fc.oneof(
          fc.constant(""),
          fc.integer({ min: 0, max: 9 }).map((first) => `(first: ${first})`),
        ),
    },
  },
  User: { id: {}, name: {}, username: {}, birthday: {}, reviews: { type: "Review", list: true } },
  Review: { id: {}, body: {}, product: { type: "Product" }, author: { type: "User" } },
  Product: { upc: {}, weight: {}, price: {}, inStock: {}, shippingEstimate: {}, name: {}, reviews: { type: "Review", list: true } },
};

const directive = fc.oneof(
  { weight: 6, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.constantFrom(" @skip(if: true)", " @skip(if: false)", " @include(if: true)", " @include(if: false)") },
  { weight: 2, arbitrary: fc.constantFrom(" @skip(if: $skip)", " @include(if: $show)") },
);

/** A selection set on `type`, `depth` levels deep at most: fields in random order, some aliased, repeated, fragmented or conditional. */
function selectionSet(type: string, depth: number): fc.Arbitrary<string> {
  const fields = Object.entries(types[type]!).filter(([, field]) => !field.type || depth > 1);
  if (fields.length === 0) return fc.constant("{ __typename }");
  const item = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...fields).chain(([name, field]) => selection(name, field, depth)) },
    { weight: 1, arbitrary: directive.map((condition) => `__typename${condition}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(directive, depth > 1 ? selectionSet(type, depth - 1) : fc.constant("{ __typename }"))
        .map(([condition, inner]) => `... on ${type}${condition} ${inner}`),
    },
  );
  return fc.array(item, { minLength: 1, maxLength: 5 }).map((items) => `{ ${items.join(" ")} }`);
}

function selection(name: string, field: { type?: string; args?: () => fc.Arbitrary<string> }, depth: number): fc.Arbitrary<string> {
  const alias = fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: fc.constantFrom("a", "b", "c").map((suffix) => `${name}_${suffix}: `) },
  );
  const args = field.args ? field.args() : fc.constant("");
  const sub = field.type ? selectionSet(field.type, depth - 1) : fc.constant("");
  return fc
    .tuple(alias, args, directive, sub)
    .map(([prefix, argument, condition, inner]) => `${prefix}${name}${argument}${condition}${inner ? ` ${inner}` : ""}`);
}

/**
 * Random query operations over the federation benchmark's supergraph (bench/src/scenarios/
 * federation-benchmark/), for the plan executor's differential test: the body of a request, with
 * the variables its `@skip`/`@include` read. Some are invalid (aliases that conflict): those are
 * refused by validation, alike on both sides.
 */
export function arbitraryBenchmarkOperation(): fc.Arbitrary<{ query: string; variables: Record<string, boolean>; operationName?: string }> {
  return fc.tuple(selectionSet("Query", 5), fc.boolean(), fc.option(fc.boolean(), { nil: undefined }), fc.boolean()).map(([selections, skip, show, named]) => {
    const variables: Record<string, boolean> = {};
    const definitions: string[] = [];
    if (selections.includes("$skip")) {
      definitions.push("$skip: Boolean!");
      variables.skip = skip;
    }
    if (selections.includes("$show")) {
      definitions.push("$show: Boolean = true");
      if (show !== undefined) variables.show = show;
    }
    const head = named || definitions.length > 0 ? `query Generated${definitions.length > 0 ? `(${definitions.join(", ")})` : ""} ` : "";
    return { query: `${head}${selections}`, variables, ...(named && head ? { operationName: "Generated" } : {}) };
  });
}
