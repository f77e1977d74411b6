import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { composeSupergraph, readSupergraphConfig } from "@compliance-graph/gateway";

const root = fileURLToPath(new URL("../../", import.meta.url));
const configPath = `${root}supergraph.yaml`;

describe("the committed supergraph", () => {
  it("names the aopd and trpd subgraphs in rover's format", async () => {
    const config = await readSupergraphConfig(configPath);
    expect(config.subgraphs.map(({ name, routingUrl }) => ({ name, routingUrl }))).toEqual([
      { name: "aopd", routingUrl: "http://localhost:4001/graphql" },
      { name: "trpd", routingUrl: "http://localhost:4002/graphql" },
    ]);
  });

  it("is what composing supergraph.yaml gives today (run `npm run compose` when this fails)", async () => {
    const committed = await readFile(`${root}supergraph.graphql`, "utf8");
    expect(committed).toBe(await composeSupergraph(configPath));
  });

  it("carries @requiresRole through composition", async () => {
    const committed = await readFile(`${root}supergraph.graphql`, "utf8");
    expect(committed).toContain('@link(url: "https://compliance-graph.dev/authorization/v1.0", import: ["@requiresRole"])');
    expect(committed).toContain('@requiresRole(role: "travel-rule:read")');
  });
});
