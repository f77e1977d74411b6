import { ApolloServer, type ApolloServerPlugin, type BaseContext } from "@apollo/server";
import { buildSchema, GraphQLError, type GraphQLSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledExecutionGateway } from "../src/compiled-execution-gateway.js";
import { inputValuesPlugin } from "../src/input-values-plugin.js";
import { costLimitPlugin } from "../src/operation-cost.js";

/**
 * Compiled execution is an executor behind Apollo Server's `gateway` door and nothing more: every
 * request, however often its document ran before, passes every plugin of the server (a check
 * added later cannot be skipped for repeated queries), and answers what graphql-js answers.
 */
function itemSchema(): { schema: GraphQLSchema; callers: string[] } {
  const schema = buildSchema(`
    type Item { id: ID! name: String! broken: String }
    type Query { items(limit: Int!, name: String): [Item!]! }
  `);
  const callers: string[] = [];
  const items = Array.from({ length: 5 }, (_, index) => ({ id: String(index), name: `item ${index}` }));
  schema.getQueryType()!.getFields().items!.resolve = (_source, args: { limit: number; name?: string }) => {
    // Which executor walks the result: graphql-js calls resolvers from its executeField.
    callers.push(/graphql[\\/]execution[\\/]execute/.test(new Error().stack ?? "") ? "graphql-js" : "compiled");
    return items.filter((item) => args.name === undefined || item.name === args.name).slice(0, args.limit);
  };
  const item = schema.getType("Item") as { getFields(): Record<string, { resolve?: () => unknown }> };
  item.getFields().broken!.resolve = () => {
    throw new GraphQLError("broken on purpose", { extensions: { code: "BROKEN" } });
  };
  return { schema, callers };
}

/** Counts the operations that reached each hook: what a plugin added to the list sees. */
function countingPlugin(counts: { resolved: number; executed: number }): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation() {
          counts.resolved += 1;
        },
        async executionDidStart() {
          counts.executed += 1;
        },
      };
    },
  };
}

describe("compiledExecutionGateway", () => {
  const compiledCounts = { resolved: 0, executed: 0 };
  const compiledItems = itemSchema();
  const interpretedItems = itemSchema();
  const plugins = () => [inputValuesPlugin(), costLimitPlugin({ maxCost: 100, maxListRows: 1_000, assumedListSize: 10 })];
  const compiled = new ApolloServer({ gateway: compiledExecutionGateway(compiledItems.schema), plugins: [countingPlugin(compiledCounts), ...plugins()] });
  const interpreted = new ApolloServer({ schema: interpretedItems.schema, plugins: plugins() });
  beforeAll(async () => {
    await Promise.all([compiled.start(), interpreted.start()]);
  });
  afterAll(async () => {
    await Promise.all([compiled.stop(), interpreted.stop()]);
  });

  const query = "query Items($limit: Int!, $name: String) { items(limit: $limit, name: $name) { id name } }";
  const answer = async (server: ApolloServer, variables: Record<string, unknown>, text = query) => {
    const response = await server.executeOperation({ query: text, variables });
    if (response.body.kind !== "single") throw new Error("expected a single result");
    return { status: response.http.status ?? 200, result: JSON.parse(JSON.stringify(response.body.singleResult)) as unknown };
  };

  it("runs a document with graphql-js once, then compiled, answering the same", async () => {
    compiledItems.callers.length = 0;
    for (let run = 0; run < 4; run += 1) {
      const variables = { limit: 2 + run };
      expect(await answer(compiled, variables)).toEqual(await answer(interpreted, variables));
    }
    expect(compiledItems.callers).toEqual(["graphql-js", "compiled", "compiled", "compiled"]);
  });

  it("passes every plugin on every run of a compiled document, so their checks refuse the hundredth run as the first", async () => {
    const before = { ...compiledCounts };
    for (let run = 0; run < 100; run += 1) await answer(compiled, { limit: 1 });
    expect(compiledCounts).toEqual({ resolved: before.resolved + 100, executed: before.executed + 100 });
    // The input value check: a NUL byte in a variable.
    const nul = await answer(compiled, { limit: 1, name: "a\u0000" });
    expect(nul).toEqual(await answer(interpreted, { limit: 1, name: "a\u0000" }));
    expect(nul).toMatchObject({ status: 400, result: { errors: [{ extensions: { code: "BAD_USER_INPUT" } }] } });
    // The cost check: a limit from a variable above the cost limit.
    const costly = await answer(compiled, { limit: 500 });
    expect(costly).toEqual(await answer(interpreted, { limit: 500 }));
    expect(costly).toMatchObject({ status: 400, result: { errors: [{ extensions: { code: "LIMIT_EXCEEDED", limit: "maxCost" } }] } });
  });

  it("answers variables that do not coerce, and resolver errors, as graphql-js does", async () => {
    for (let run = 0; run < 3; run += 1) {
      for (const variables of [{ limit: "many" }, {}, { limit: 1, name: 5 }])
        expect(await answer(compiled, variables)).toEqual(await answer(interpreted, variables));
      const broken = "query Broken { items(limit: 2) { id broken } }";
      const result = await answer(compiled, {}, broken);
      expect(result).toEqual(await answer(interpreted, {}, broken));
      const brokenAt = (index: number) => ({
        message: "broken on purpose",
        path: ["items", index, "broken"],
        locations: [{ line: 1, column: 37 }],
        extensions: { code: "BROKEN" },
      });
      expect(result.result).toMatchObject({
        errors: [brokenAt(0), brokenAt(1)],
        data: {
          items: [
            { id: "0", broken: null },
            { id: "1", broken: null },
          ],
        },
      });
    }
  });
});
