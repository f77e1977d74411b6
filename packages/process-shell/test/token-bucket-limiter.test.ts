import { describe, expect, it } from "vitest";
import { TokenBucketLimiter } from "../src/token-bucket-limiter.js";

describe("TokenBucketLimiter", () => {
  // A frozen clock the test moves by hand: refill is computed, never waited for.
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it("allows a burst of capacity, then refuses with the seconds until the next token", () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 3, refillPerSecond: 0.5, now: time.now });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 2 });
    time.advance(1_000);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
    time.advance(1_000);
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("keeps keys apart and never refills above capacity", () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 2, refillPerSecond: 1, now: time.now });
    limiter.take("a");
    limiter.take("a");
    expect(limiter.take("a").allowed).toBe(false);
    expect(limiter.take("b").allowed).toBe(true);
    time.advance(60_000);
    expect([limiter.take("a").allowed, limiter.take("a").allowed, limiter.take("a").allowed]).toEqual([true, true, false]);
  });

  it("holds at most maxKeys buckets, evicting the least recently used", () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.001, maxKeys: 3, now: time.now });
    for (const key of ["a", "b", "c"]) limiter.take(key);
    limiter.take("a"); // refused, and now the most recently used
    for (let index = 0; index < 1_000; index += 1) limiter.take(`flood-${index}`);
    expect(limiter.size).toBe(3);
    // "a" was evicted by the flood and starts again full: the bound is on memory, per-key state is best effort.
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("flood-999").allowed).toBe(false);
  });

  it("refuses a nonsensical configuration", () => {
    expect(() => new TokenBucketLimiter({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0 })).toThrow(RangeError);
  });
});
