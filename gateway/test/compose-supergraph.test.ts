import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeSupergraph, CompositionError, readSupergraphConfig } from "../src/index.js";

describe("composeSupergraph", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-compose-"));
    await writeFile(
      join(folder, "a.graphql"),
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])\ntype Query { a: Thing }\ntype Thing @key(fields: "id") { id: ID! name: String }',
    );
    await writeFile(
      join(folder, "b.graphql"),
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"])\ntype Query { b: Int }\ntype Thing @key(fields: "id") { id: ID! name: Int }',
    );
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const config = async (name: string, text: string) => {
    const path = join(folder, name);
    await writeFile(path, text);
    return path;
  };

  it("composes the subgraphs of a rover config, resolving schema files against the config's folder", async () => {
    const path = await config(
      "ok.yaml",
      "federation_version: =2.14.4\nsubgraphs:\n  a:\n    routing_url: http://a/graphql\n    schema:\n      file: ./a.graphql\n",
    );
    expect((await readSupergraphConfig(path)).subgraphs).toEqual([{ name: "a", routingUrl: "http://a/graphql", schemaFile: join(folder, "a.graphql") }]);
    const sdl = await composeSupergraph(path);
    expect(sdl).toContain('A @join__graph(name: "a", url: "http://a/graphql")');
  });

  it("reports every composition error", async () => {
    const path = await config(
      "conflict.yaml",
      "subgraphs:\n  a:\n    routing_url: http://a/graphql\n    schema: { file: ./a.graphql }\n  b:\n    routing_url: http://b/graphql\n    schema: { file: ./b.graphql }\n",
    );
    const failure = await composeSupergraph(path).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CompositionError);
    expect((failure as CompositionError).errors.join("\n")).toMatch(/Thing\.name/);
  });

  it("refuses a config without schema files", async () => {
    const path = await config("bad.yaml", "subgraphs:\n  a:\n    routing_url: http://a/graphql\n    schema:\n      subgraph_url: http://a/graphql\n");
    await expect(composeSupergraph(path)).rejects.toThrow(/schema.file/);
  });
});
