import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generateBenchmarkData } from "../../bench/src/scenarios/federation-benchmark/benchmark-data.js";
import { referenceAnswers } from "../../bench/src/scenarios/federation-benchmark/benchmark-queries.js";
import { composeBenchmarkSupergraph } from "../../bench/src/scenarios/federation-benchmark/compose-benchmark-supergraph.js";

/** The federation benchmark's committed files stay what the scenario uses (bench/src/scenarios/federation-benchmark/). */
describe("the federation benchmark's workload", () => {
  it("has a committed supergraph composed from its four subgraph files", async () => {
    const committed = await readFile(new URL("../../bench/src/scenarios/federation-benchmark/supergraph.graphql", import.meta.url), "utf8");
    expect(committed).toBe(composeBenchmarkSupergraph());
  });

  it("generates the same data on every run, with an answer of the public benchmark's size", () => {
    expect(generateBenchmarkData()).toEqual(generateBenchmarkData());
    const { big } = referenceAnswers(generateBenchmarkData());
    // About 87 KB, as the public benchmark's answer: the same counts and string lengths (only some booleans differ).
    expect(JSON.stringify({ data: big }).length).toBe(87_730);
  });
});
