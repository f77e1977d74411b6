import { join } from "node:path";
import ts from "typescript";

/** A Kubernetes object as read from a manifest: its `apiVersion` and `kind` name its type in kubernetes-models. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
}

/**
 * The fields of `objects` that the Kubernetes API does not define, and any other disagreement with its types, as
 * messages naming the object and the field. kubernetes-models' `validate()` lets unknown fields pass, so a misspelled
 * field (`readinesProbe`) would be dropped silently by a lenient client and the probe never run; its TypeScript
 * types, generated from the same OpenAPI schemas, list every field, and TypeScript refuses an object literal with a
 * field its type lacks at any depth (the excess property check). So each object becomes a literal typed as its kind,
 * compiled in memory, without emitting anything.
 */
export function unknownKubernetesFields(objects: readonly KubernetesObject[]): string[] {
  // The virtual file sits in the repository so that `kubernetes-models` resolves from its node_modules.
  const fileName = join(process.cwd(), "test/deploy/kubernetes-objects.virtual.ts");
  const typeOf = (object: KubernetesObject) => `import("kubernetes-models/${object.apiVersion}/${object.kind}").I${object.kind}`;
  // One object per line: a diagnostic's line names its object.
  const source = objects.map((object, index) => `export const object${index}: ${typeOf(object)} = ${JSON.stringify(object)};`).join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => (name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, onError));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  const file = program.getSourceFile(fileName)!;
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
    const line = diagnostic.start === undefined ? undefined : file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const object = line === undefined ? undefined : objects[line];
    const where = object ? `${object.kind} ${object.metadata.name}` : "the manifests";
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
  });
}
