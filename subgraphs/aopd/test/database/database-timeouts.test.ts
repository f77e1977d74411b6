import { describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { databaseTimeoutsFromEnv, defaultDatabaseTimeouts } from "../../src/database/database-timeouts.js";

describe("the database timeouts from the environment", () => {
  it("takes the defaults when nothing is set, and each variable in milliseconds", () => {
    expect(databaseTimeoutsFromEnv({})).toEqual(defaultDatabaseTimeouts);
    expect(databaseTimeoutsFromEnv({ AOPD_DB_STATEMENT_TIMEOUT_MS: "750", AOPD_READY_TIMEOUT_MS: "300" })).toMatchObject({
      statementTimeoutMs: 750,
      readyTimeoutMs: 300,
    });
  });

  it.each(["0", "-1", "1.5", "5s", "2147483648"])("refuses %j, naming the variable and what is allowed, since no wait may be unbounded", (raw) => {
    expect(() => databaseTimeoutsFromEnv({ AOPD_DB_CONNECT_TIMEOUT_MS: raw })).toThrow(
      `AOPD_DB_CONNECT_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647; got ${JSON.stringify(raw)}.`,
    );
  });

  it("refuses a long statement timeout shorter than the queries' one", () => {
    expect(() => databaseTimeoutsFromEnv({ AOPD_DB_STATEMENT_TIMEOUT_MS: "10000", AOPD_DB_LONG_STATEMENT_TIMEOUT_MS: "5000" })).toThrow(
      /AOPD_DB_LONG_STATEMENT_TIMEOUT_MS \(5000\) must be at least AOPD_DB_STATEMENT_TIMEOUT_MS \(10000\)/,
    );
  });

  it("refuses an idle-in-transaction timeout that would end an upload waiting between chunks", () => {
    expect(() => aopdConfigFromEnv({ AOPD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "30000", AOPD_UPLOAD_IDLE_SECONDS: "30" })).toThrow(
      /must exceed AOPD_UPLOAD_IDLE_SECONDS/,
    );
    expect(aopdConfigFromEnv({ AOPD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "30001", AOPD_UPLOAD_IDLE_SECONDS: "30" }).database.idleInTransactionTimeoutMs).toBe(
      30_001,
    );
  });
});
