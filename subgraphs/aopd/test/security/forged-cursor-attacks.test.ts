import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

/**
 * The `after` cursor of `proofs` is opaque to clients but only base64url JSON: anyone can write
 * one. The values in it go into the keyset predicate as query parameters, so a forged one cannot
 * inject SQL, but it can carry what the database refuses (an id that is not a UUID, a NUL byte, a
 * time PostgreSQL cannot hold) and turn every such request into an INTERNAL_SERVER_ERROR with a
 * stack in the log. Each forged cursor here must be BAD_USER_INPUT naming `after`, on PostgreSQL and
 * on PGlite, before any SQL runs.
 */
const encode = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value), "utf8").toString("base64url");
const byCreation = "created_at asc,id asc";
const byCustomer = "customer_id asc,id asc";
const byAddress = "address desc,id desc";
const byComment = "comment asc,id asc";
const byStatus = "status asc,id asc";
const byAsset = "asset asc,id asc";
const uuid = "0b9d2d3c-8f64-4c4e-9d3a-6f1d2b7e4a10";
const time = "2026-01-01T00:00:00.000Z";

/** The sort order of each signature, as `proofs` takes it. */
const sortOrders: Record<string, string> = {
  [byCreation]: "[]",
  [byCustomer]: "[{ field: CUSTOMER_ID }]",
  [byAddress]: "[{ field: ADDRESS, direction: DESC }]",
  [byComment]: "[{ field: COMMENT }]",
  [byStatus]: "[{ field: STATUS }]",
  [byAsset]: "[{ field: ASSET }]",
};

const forged: [name: string, order: string, cursor: string][] = [
  // Not a cursor at all.
  ["not base64url", byCreation, "not a cursor!"],
  ["base64url of text", byCreation, encode("hello")],
  ["JSON null", byCreation, encode("null")],
  ["a JSON array", byCreation, encode([time, uuid])],
  ["a JSON number", byCreation, encode("42")],
  ["an empty object", byCreation, encode({})],
  ["an order that is not a string", byCreation, encode({ o: 1, v: [time, uuid] })],
  ["values that are not a list", byCreation, encode({ o: byCreation, v: "x" })],
  ["too few values", byCreation, encode({ o: byCreation, v: [time] })],
  ["too many values", byCreation, encode({ o: byCreation, v: [time, uuid, uuid] })],
  ["another sort order", byCreation, encode({ o: byCustomer, v: ["C", uuid] })],
  ["longer than any real cursor", byCreation, encode({ o: byCreation, v: [time, "a".repeat(9_000)] })],
  // The id.
  ["an id that is not a UUID", byCreation, encode({ o: byCreation, v: [time, "x"] })],
  ["an id with SQL in it", byCreation, encode({ o: byCreation, v: [time, "' OR 1=1 --"] })],
  ["an id with a letter past f", byCreation, encode({ o: byCreation, v: [time, "0b9d2d3c-8f64-4c4e-9d3a-6f1d2b7e4a1g"] })],
  ["an id one digit short", byCreation, encode({ o: byCreation, v: [time, uuid.slice(0, -1)] })],
  ["an id with a NUL byte", byCreation, encode({ o: byCreation, v: [time, `${uuid}\u0000`] })],
  ["an id that is a NUL byte", byCreation, encode({ o: byCreation, v: [time, "\u0000"] })],
  ["an empty id", byCreation, encode({ o: byCreation, v: [time, ""] })],
  ["a null id", byCreation, encode({ o: byCreation, v: [time, null] })],
  ["a numeric id", byCreation, encode({ o: byCreation, v: [time, 7] })],
  ["an id that is an object", byCreation, encode({ o: byCreation, v: [time, { $ne: null }] })],
  // The creation time.
  ["a time that is not a time", byCreation, encode({ o: byCreation, v: ["yesterday", uuid] })],
  ["an empty time", byCreation, encode({ o: byCreation, v: ["", uuid] })],
  ["the earliest time JavaScript holds", byCreation, encode({ o: byCreation, v: ["-271821-04-20T00:00:00.000Z", uuid] })],
  ["the latest time JavaScript holds", byCreation, encode({ o: byCreation, v: ["+275760-09-13T00:00:00.000Z", uuid] })],
  ["a time in year 10000", byCreation, encode({ o: byCreation, v: ["+010000-01-01T00:00:00.000Z", uuid] })],
  ["a time with a NUL byte", byCreation, encode({ o: byCreation, v: [`${time}\u0000`, uuid] })],
  ["a null time", byCreation, encode({ o: byCreation, v: [null, uuid] })],
  ["a numeric time", byCreation, encode({ o: byCreation, v: [0, uuid] })],
  // The customer, address, comment, status and asset.
  ["a customer with a NUL byte", byCustomer, encode({ o: byCustomer, v: ["CUST\u00001", uuid] })],
  ["a customer that is a NUL byte", byCustomer, encode({ o: byCustomer, v: ["\u0000", uuid] })],
  ["a null customer", byCustomer, encode({ o: byCustomer, v: [null, uuid] })],
  ["a customer that is a list", byCustomer, encode({ o: byCustomer, v: [["C"], uuid] })],
  ["a customer with a bad id", byCustomer, encode({ o: byCustomer, v: ["C", "1"] })],
  ["an address with a NUL byte", byAddress, encode({ o: byAddress, v: ["bc1q\u0000", uuid] })],
  ["an address with a bad id", byAddress, encode({ o: byAddress, v: [null, "not-a-uuid"] })],
  ["a comment with a NUL byte", byComment, encode({ o: byComment, v: ["note\u0000", uuid] })],
  ["a status with a NUL byte", byStatus, encode({ o: byStatus, v: ["PENDING\u0000", uuid] })],
  ["a null status", byStatus, encode({ o: byStatus, v: [null, uuid] })],
  ["an asset with a NUL byte", byAsset, encode({ o: byAsset, v: ["DTI4H95J0R2X\u0000", uuid] })],
  ["a null asset", byAsset, encode({ o: byAsset, v: [null, uuid] })],
];

const page = (sortOrder: string) => `query($after: String) { aopd { proofs(limit: 2, after: $after, sortOrder: ${sortOrder}) { id cursor } } }`;

describe.each(databaseDrivers)("forged `after` cursors of proofs on %s", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { seedDemoProofs: 5 });
    // PGlite compiles and starts slowly on a busy machine.
  }, 180_000);
  afterAll(() => aopd?.close());

  it.each(forged)("refuses %s as BAD_USER_INPUT naming `after`", async (_name, order, cursor) => {
    const { body } = await aopd.query(page(sortOrders[order]!), { after: cursor });
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "after" });
    expect(body.errors?.[0]?.message).toMatch(/^after: /);
    expect(body.data ?? null).toBeNull();
  });

  it("still pages with the cursors it hands out, in every order (control)", async () => {
    for (const sort of Object.values(sortOrders)) {
      const first = await aopd.query(page(sort));
      const proofs = (first.body.data!.aopd as { proofs: { id: string; cursor: string }[] }).proofs;
      const next = await aopd.query(page(sort), { after: proofs[1]!.cursor });
      expect(next.body.errors).toBeUndefined();
      expect((next.body.data!.aopd as { proofs: { id: string }[] }).proofs.map((proof) => proof.id)).not.toContain(proofs[1]!.id);
    }
  });
});
