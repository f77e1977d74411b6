import { describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";

describe("AOPD_RECORD_RETENTION_YEARS", () => {
  it("defaults to five years", () => {
    expect(aopdConfigFromEnv({}).recordRetentionYears).toBe(5);
  });

  it("takes whole numbers of years from 1 outside production", () => {
    expect(aopdConfigFromEnv({ AOPD_RECORD_RETENTION_YEARS: "1" }).recordRetentionYears).toBe(1);
    expect(aopdConfigFromEnv({ AOPD_RECORD_RETENTION_YEARS: "10" }).recordRetentionYears).toBe(10);
  });

  it("refuses what is not a whole number of years, naming the setting and what is allowed", () => {
    for (const value of ["0", "-5", "2.5", "five", ""]) {
      expect(() => aopdConfigFromEnv({ AOPD_RECORD_RETENTION_YEARS: value })).toThrow(
        /^AOPD_RECORD_RETENTION_YEARS must be a whole number of years, at least 1/,
      );
    }
  });

  it("refuses less than five years in production", () => {
    expect(() => aopdConfigFromEnv({ NODE_ENV: "production", AOPD_RECORD_RETENTION_YEARS: "4" })).toThrow(/must be at least 5 in production/);
  });
});
