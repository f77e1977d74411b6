import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTimestamptz } from "../../src/database/timestamptz-parser.js";

const generalParser = pg.types.getTypeParser(1184, "text") as (text: string) => Date | number | string;
const asComparable = (value: Date | number | string) => (value instanceof Date ? `date ${value.getTime()}` : `${typeof value} ${value}`);

describe("timestamptz parser", () => {
  let client: pg.Client;
  beforeAll(async () => {
    // Text as PostgreSQL writes it, so the parser sees exactly what the pool receives.
    client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
      types: { getTypeParser: () => (text: string) => text } as never,
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  // UTC as the pool sees it by default; offsets with minutes; a zone west of UTC; one with
  // offsets in seconds before 1900 (LMT), which only the general parser reads.
  it.each(["UTC", "Asia/Kolkata", "America/St_Johns", "Europe/Amsterdam"])("reads what PostgreSQL writes in %s as the general parser does", async (zone) => {
    await client.query(`SET TimeZone = '${zone}'`);
    const { rows } = await client.query<{ value: string }>(
      `SELECT value::text AS value FROM (
         SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '90 years' AS value FROM generate_series(1, 2000)
         UNION ALL SELECT date_trunc('second', now()) UNION ALL SELECT date_trunc('milliseconds', now())
         UNION ALL VALUES (timestamptz '0001-01-01 00:00:00+00'), (timestamptz '0099-12-31 23:59:59.999+00'), (timestamptz '1850-06-01 12:00:00+00'),
           (timestamptz '9999-12-31 23:59:59.999999+00'), (timestamptz '10000-01-01 00:00:00+00'), (timestamptz '0044-03-15 12:00:00+00 BC'),
           (timestamptz 'infinity'), (timestamptz '-infinity'), (timestamptz '2026-03-01 12:34:56.1+00')
       ) AS sample`,
    );
    expect(rows.length).toBe(2011);
    for (const { value } of rows) expect(asComparable(parseTimestamptz(value)), value).toBe(asComparable(generalParser(value)));
  });
});
