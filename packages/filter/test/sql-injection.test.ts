import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import { compileFilter, type FilterGroupSpec } from "../src/index.js";

/**
 * The attack: a client puts SQL into filter values hoping it reaches the query text. Every value
 * must arrive as a bound parameter, and input field names never become column names.
 */
const db = new Kysely<{ item: { id: string; name: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const spec: FilterGroupSpec = { kind: "group", fields: { name: { kind: "string", column: "name" }, id: { kind: "string", column: "id", uuid: true } } };
const payloads = ["'; DROP TABLE item; --", '" OR 1=1 --', "x') OR ('1'='1", 'name" = "name', "\\'; SELECT pg_sleep(10); --"];

describe("SQL injection through filters", () => {
  for (const payload of payloads) {
    it(`binds ${JSON.stringify(payload)} as a parameter in every operator`, () => {
      const input = {
        name: { eq: payload, ne: payload, in: [payload], notIn: [payload], like: `%${payload}%`, ilike: payload.replace(/\\$/, ""), notIlike: "%" },
      };
      const { sql, parameters } = db
        .selectFrom("item")
        .select("id")
        .where((eb) => compileFilter(eb, spec, input, "filter"))
        .compile();
      expect(sql).not.toContain(payload);
      expect(sql).not.toMatch(/drop|pg_sleep|or 1=1/i);
      expect(parameters).toContain(payload);
    });
  }

  it("refuses a field name that is not in the spec instead of using it as a column", () => {
    expect(() =>
      db
        .selectFrom("item")
        .select("id")
        .where((eb) => compileFilter(eb, spec, { 'name" OR 1=1 --': { eq: "x" } }, "filter"))
        .compile(),
    ).toThrow(/is not a filter field/);
  });

  it("never sends a non-UUID to a UUID column, where PostgreSQL would raise an error", () => {
    const { sql, parameters } = db
      .selectFrom("item")
      .select("id")
      .where((eb) => compileFilter(eb, spec, { id: { eq: "1' OR '1'='1", in: ["x", "y"] } }, "filter"))
      .compile();
    expect(sql).toBe('select "id" from "item" where (false and false)');
    expect(parameters).toEqual([]);
  });
});
