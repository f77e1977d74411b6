import { readFileSync, writeFileSync } from "node:fs";
import { aopdSchemaFile, assembleAopdSdl } from "@compliance-graph/aopd";
import { consoleSchemaArtifacts } from "@compliance-graph/console/schema-artifacts";
import { composeSupergraph } from "@compliance-graph/gateway";

/**
 * `npm run generate`: writes the generated contract files: the aopd schema, assembled from its
 * sources (see assemble-aopd-sdl.ts), then the supergraph composed from `supergraph.yaml`, then
 * the console's typed view of the supergraph's API schema (console-schema-artifacts.ts).
 */
writeFileSync(aopdSchemaFile, assembleAopdSdl());
console.log(`wrote ${aopdSchemaFile.pathname}`);
writeFileSync("supergraph.graphql", await composeSupergraph("supergraph.yaml"));
console.log("wrote supergraph.graphql");
for (const { file, text } of consoleSchemaArtifacts(readFileSync("supergraph.graphql", "utf8"))) {
  writeFileSync(file, text);
  console.log(`wrote ${file.pathname}`);
}
