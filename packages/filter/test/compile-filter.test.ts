import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import { compileFilter, type FilterGroupSpec } from "../src/index.js";

interface Db {
  item: { id: string; name: string; note: string | null; state: string; at: Date };
}

// A Kysely that only compiles: these tests look at the SQL text and its parameters.
const db = new Kysely<Db>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const spec: FilterGroupSpec = {
  kind: "group",
  fields: {
    id: { kind: "string", column: "id", uuid: true },
    name: { kind: "string", column: "name" },
    note: { kind: "string", column: "note" },
    at: { kind: "timestamp", column: "at" },
    state: { kind: "enumList", column: "state", values: ["OPEN", "DONE"] },
    done: { kind: "group", requires: { column: "state", equals: "DONE" }, fields: { note: { kind: "string", column: "note" } } },
  },
};

function compile(input: unknown) {
  return db
    .selectFrom("item")
    .select("id")
    .where((eb) => compileFilter(eb, spec, input, "filter"))
    .compile();
}

describe("compileFilter", () => {
  it("joins every given condition with AND and binds every value", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const { sql, parameters } = compile({ name: { ilike: "%ab%", ne: "x" }, at: { gte: at }, state: ["OPEN"] });
    expect(sql).toBe('select "id" from "item" where (("name" is distinct from $1 and "name" ilike $2) and "at" >= $3 and "state" in ($4))');
    expect(parameters).toEqual(["x", "%ab%", at, "OPEN"]);
  });

  it("matches everything for an absent or empty filter", () => {
    expect(compile(undefined).sql).toBe('select "id" from "item" where 1 = 1');
    expect(compile({ name: {} }).sql).toBe('select "id" from "item" where 1 = 1');
  });

  it("counts a missing value as different for ne and notIn, and as no match for patterns", () => {
    expect(compile({ note: { notIn: ["a", "b"] } }).sql).toBe('select "id" from "item" where ("note" is null or "note" not in ($1, $2))');
    expect(compile({ note: { notIlike: "a%" } }).sql).toBe('select "id" from "item" where "note" not ilike $1');
  });

  it("adds the group's own requirement even when the group is empty", () => {
    expect(compile({ done: {} }).sql).toBe('select "id" from "item" where "state" = $1');
    expect(compile({ done: { note: { isNull: true } } }).sql).toBe('select "id" from "item" where ("state" = $1 and "note" is null)');
  });

  it("turns a wildcard-free pattern on a UUID column into a primary-key equality", () => {
    const id = "0A8F2C4E-1B2D-4E5F-8A9B-0C1D2E3F4A5B";
    const exact = compile({ id: { ilike: id } });
    expect(exact.sql).toBe('select "id" from "item" where "id" = $1');
    expect(exact.parameters).toEqual([id.toLowerCase()]);
    expect(compile({ id: { ilike: "%0a8f%" } }).sql).toBe('select "id" from "item" where "id"::text ilike $1');
    expect(compile({ id: { eq: "not-a-uuid" } }).sql).toBe('select "id" from "item" where false');
    expect(compile({ id: { like: id } }).sql).toBe('select "id" from "item" where false');
  });

  it("names the field and what is allowed when the input is bad", () => {
    expect(() => compile({ state: [] })).toThrow("filter.state: at least one value must be given; allowed: OPEN, DONE.");
    expect(() => compile({ name: { like: "x".repeat(257) } })).toThrow("filter.name.like: the pattern has 257 characters; at most 256 are allowed.");
    expect(() => compile({ name: { ilike: "ab\\" } })).toThrow(/filter\.name\.ilike: the pattern ends with an escape character/);
    expect(() => compile({ name: { in: Array.from({ length: 1001 }, String) } })).toThrow("filter.name.in: has 1001 values; at most 1000 are allowed.");
    expect(() => compile({ unknown: {} })).toThrow("filter.unknown: is not a filter field; allowed: id, name, note, at, state, done.");
  });

  it("refuses a NUL character in every string condition, naming the value, since PostgreSQL text cannot hold one", () => {
    const nul = "a\u0000b";
    for (const operator of ["eq", "ne", "like", "ilike", "notIlike"]) {
      expect(() => compile({ name: { [operator]: nul } })).toThrow(`filter.name.${operator}: must not contain a NUL character (U+0000).`);
    }
    expect(() => compile({ name: { in: ["x", nul] } })).toThrow("filter.name.in.1: must not contain a NUL character (U+0000).");
    expect(() => compile({ id: { notIn: [nul] } })).toThrow("filter.id.notIn.0: must not contain a NUL character (U+0000).");
  });

  it("types a spec's columns against the table when given the table's column names", () => {
    const typed: FilterGroupSpec<keyof Db["item"]> = { kind: "group", fields: { name: { kind: "string", column: "name" } } };
    // @ts-expect-error: the table has no column "nmae", and a typed spec says so at compile time.
    const misspelt: FilterGroupSpec<keyof Db["item"]> = { kind: "group", fields: { name: { kind: "string", column: "nmae" } } };
    // @ts-expect-error: a group's requirement names a column of the table too.
    const badRequirement: FilterGroupSpec<keyof Db["item"]> = { kind: "group", requires: { column: "kind", equals: "x" }, fields: {} };
    // A typed spec is still a spec the compiler takes.
    expect(
      db
        .selectFrom("item")
        .select("id")
        .where((eb) => compileFilter(eb, typed, { name: { eq: "x" } }, "filter"))
        .compile().sql,
    ).toBe('select "id" from "item" where "name" = $1');
    expect([misspelt.kind, badRequirement.kind]).toEqual(["group", "group"]);
  });
});
