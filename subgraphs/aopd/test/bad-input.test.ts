import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "./support/start-test-aopd.js";
import { databaseDrivers } from "./support/test-database.js";

/**
 * The attack at the subgraph itself: values that pass GraphQL but that the database refuses (a NUL
 * byte, a DateTime past year 9999 once in UTC, a day that does not exist), to make every request an
 * internal error. Each is BAD_USER_INPUT naming the field, on PostgreSQL and on PGlite.
 */
describe.each(databaseDrivers)("bad input at aopd on %s", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 3 });
  });
  afterAll(() => aopd?.close());

  const countQuery = "query($f: AopdProofFilterInput) { aopd { proofsCount(filter: $f) } }";

  it("refuses a NUL byte in a string, naming the field", async () => {
    for (const condition of [{ customerId: { eq: "a\u0000b" } }, { address: { ilike: "a\u0000%" } }]) {
      const { status, body } = await aopd.query(countQuery, { f: { is: { any: condition } } });
      expect(status).toBe(400);
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: "BAD_USER_INPUT",
        field: `f.is.any.${Object.keys(condition)[0]}.${Object.keys(Object.values(condition)[0])[0]}`,
      });
    }
    const literal = await aopd.query(`{ aopd { proofsCount(filter: { is: { any: { comment: { eq: "\\u0000" } } } }) } }`);
    expect(literal.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "filter.is.any.comment.eq" });
  });

  it.each(["9999-12-31T23:59:59-14:00", "2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "2026-01-01T24:00:00Z"])(
    "refuses the DateTime %j, naming the field",
    async (value) => {
      const { status, body } = await aopd.query(countQuery, { f: { is: { any: { createdAt: { gt: value } } } } });
      expect(status).toBe(400);
      expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(body.errors?.[0]?.message).toContain("f.is.any.createdAt.gt");
    },
  );

  it("answers the last instant of year 9999 and the first of year 1 (control)", async () => {
    for (const value of ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"]) {
      const { body } = await aopd.query(countQuery, { f: { is: { any: { createdAt: { lt: value } } } } });
      expect(body.errors).toBeUndefined();
    }
  });
});
