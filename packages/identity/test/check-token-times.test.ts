import { describe, expect, it } from "vitest";
import { checkTokenTimes } from "../src/index.js";

const limits = { clockToleranceSeconds: 10, maxLifetimeSeconds: 3_600 };
const nowMs = Date.UTC(2026, 0, 1);
const now = nowMs / 1000;

describe("the times of a token, checked alike for access tokens and internal tokens", () => {
  it("accepts a token issued now or within the clock tolerance ahead, living up to the limit", () => {
    expect(() => checkTokenTimes({ iat: now, exp: now + 3_600 }, limits, nowMs)).not.toThrow();
    expect(() => checkTokenTimes({ iat: now + 10, exp: now + 300 }, limits, nowMs)).not.toThrow();
    expect(() => checkTokenTimes({ exp: now + 3_600 }, limits, nowMs)).not.toThrow();
  });

  it("refuses a token issued in the future beyond the tolerance", () => {
    expect(() => checkTokenTimes({ iat: now + 11, exp: now + 300 }, limits, nowMs)).toThrow("iat lies in the future");
  });

  it("refuses a token stamped to live longer than the limit, measured from iat, or from now without one", () => {
    expect(() => checkTokenTimes({ iat: now - 60, exp: now + 3_600 }, limits, nowMs)).toThrow("lifetime 3660 s exceeds 3600 s");
    expect(() => checkTokenTimes({ exp: now + 3_601 }, limits, nowMs)).toThrow("lifetime 3601 s exceeds 3600 s");
  });

  it("reads the clock it is given, not the machine's", () => {
    const later = nowMs + 86_400_000;
    expect(() => checkTokenTimes({ iat: now + 86_400, exp: now + 86_700 }, limits, later)).not.toThrow();
    expect(() => checkTokenTimes({ iat: now + 86_400, exp: now + 86_700 }, limits, nowMs)).toThrow("iat lies in the future");
  });
});
