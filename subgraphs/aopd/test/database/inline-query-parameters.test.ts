import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inlineQueryParameters } from "../../src/database/inline-query-parameters.js";

describe("inlineQueryParameters", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  // The kinds of value the filter compiler binds, with text that would break naive quoting.
  const parameters: unknown[] = [
    "it's a \\ backslash, a $1 and a \" quote",
    "%_ü💩\n\t",
    new Date("2026-03-01T12:34:56.789Z"),
    ["VERIFIED", "it's", 'say "hi"', "back\\slash"],
    42,
    -0.5,
    true,
    null,
  ];
  const query = `SELECT $1::text AS a, $2::text AS b, $3::timestamptz AS c, $4::text[] AS d, $5::int AS e, $6::float8 AS f, $7::boolean AS g, $8::text AS h, '$2' AS literal, "x$1" FROM (SELECT 1 AS "x$1") AS t`;

  it("means what the query with parameters means", async () => {
    const bound = await client.query(query, parameters);
    const inlined = await client.query(inlineQueryParameters(query, parameters));
    expect(inlined.rows).toEqual(bound.rows);
    expect(inlined.rows[0].literal).toBe("$2");
  });

  it("refuses a placeholder without a value and a value it cannot write", () => {
    expect(() => inlineQueryParameters("SELECT $2", ["one"])).toThrow(/\$2 of 1/);
    expect(() => inlineQueryParameters("SELECT $1", [Buffer.from("x")])).toThrow(/cannot be written/);
  });
});
