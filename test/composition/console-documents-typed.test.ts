import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { consoleIntrospectionFile, consoleSchemaArtifacts } from "@compliance-graph/console/schema-artifacts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const introspectionPath = fileURLToPath(consoleIntrospectionFile);

/**
 * The console's type check (`tsc -p console/tsconfig.json`, part of `npm run typecheck`) with the
 * introspection generated from `supergraph`, held in memory in place of the committed file: what
 * the check would say after `npm run generate` wrote it.
 */
function consoleDiagnostics(introspection: string): string[] {
  const configPath = `${root}console/tsconfig.json`;
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, `${root}console/`);
  const host = ts.createCompilerHost(parsed.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => (fileName === introspectionPath ? introspection : readFile(fileName));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    fileName === introspectionPath ? ts.createSourceFile(fileName, introspection, language) : getSourceFile(fileName, language, onError, shouldCreate);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(root.length)}: ` : "";
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

describe("the console's documents, typed from the schema", () => {
  it("check against the committed schema", async () => {
    expect(consoleDiagnostics(await readFile(introspectionPath, "utf8"))).toEqual([]);
  }, 600_000);

  it("fail the type check when the schema renames a field a document selects", async () => {
    const supergraph = await readFile(`${root}supergraph.graphql`, "utf8");
    // `standard` of a supported asset: selected by the start query (main.ts) and read by the asset picker.
    const renamed = supergraph.replace(/(type AopdSupportedAsset[\s\S]*?\n\s+)standard:/, "$1tokenStandard:");
    expect(renamed).not.toBe(supergraph);
    const [introspection] = consoleSchemaArtifacts(renamed);
    const diagnostics = consoleDiagnostics(introspection!.text);
    expect(
      diagnostics.some((line) => line.startsWith("console/src/main.ts: ") && line.includes("selects a field or names a type the API schema does not have")),
    ).toBe(true);
  }, 600_000);

  it("fail the type check when the schema renames a field of a request's input", async () => {
    const supergraph = await readFile(`${root}supergraph.graphql`, "utf8");
    // `message` of an AOPP request: optional, so only the input's declared type can notice that the form still sends it.
    const renamed = supergraph.replace(/(input AopdRequestAoppProofInput[\s\S]*?\n\s+)message:/, "$1walletMessage:");
    expect(renamed).not.toBe(supergraph);
    const [introspection] = consoleSchemaArtifacts(renamed);
    const diagnostics = consoleDiagnostics(introspection!.text);
    expect(diagnostics.some((line) => line.startsWith("console/src/proof-requests.ts: ") && line.includes("'message' does not exist in type"))).toBe(true);
  }, 600_000);
});
