import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { consoleIntrospectionFile, consoleSchemaArtifacts, consoleValuesFile } from "@compliance-graph/console/schema-artifacts";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("the console's committed schema artifacts", () => {
  it("are what the committed supergraph gives today (run `npm run generate` when this fails)", async () => {
    const artifacts = consoleSchemaArtifacts(await readFile(`${root}supergraph.graphql`, "utf8"));
    expect(artifacts.map(({ file }) => file.href)).toEqual([consoleIntrospectionFile.href, consoleValuesFile.href]);
    for (const { file, text } of artifacts) expect(await readFile(file, "utf8"), fileURLToPath(file)).toBe(text);
  });

  it("describe the API schema the gateway serves, not the supergraph's federation machinery", async () => {
    const introspection = await readFile(consoleIntrospectionFile, "utf8");
    expect(introspection).toContain("'AopdScreeningStatus': { name: 'AopdScreeningStatus'; enumValues: 'CLEAR' | 'LISTED' | 'NOT_SCREENED'; }");
    expect(introspection).not.toContain("join__");
    expect(introspection).not.toContain("link__");
  });

  it("name the roles the gateway enforces with @requiresRole", async () => {
    const values = await readFile(consoleValuesFile, "utf8");
    expect(values).toContain(
      'export const apiRoles = ["audit:read", "proofs:assess", "proofs:export", "proofs:read", "proofs:write", "travel-rule:read"] as const;',
    );
  });

  it("change with the schema: a field renamed in the supergraph is a different introspection", async () => {
    const supergraph = await readFile(`${root}supergraph.graphql`, "utf8");
    const renamed = supergraph.replace(/^(\s+)listVersion:/m, "$1listRevision:");
    expect(renamed).not.toBe(supergraph);
    const [introspection] = consoleSchemaArtifacts(renamed);
    expect(introspection!.text).toContain("'listRevision'");
    expect(introspection!.text).not.toBe(await readFile(consoleIntrospectionFile, "utf8"));
  });
});
