// Composes supergraph.yaml into supergraph.graphql: `node --import tsx scripts/compose.ts [config] [output]`.
import { writeFile } from "node:fs/promises";
import { composeSupergraph } from "@compliance-graph/gateway";

const configPath = process.argv[2] ?? "supergraph.yaml";
const outputPath = process.argv[3] ?? "supergraph.graphql";
try {
  const sdl = await composeSupergraph(configPath);
  await writeFile(outputPath, sdl);
  console.log(`Composed ${configPath} into ${outputPath}.`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
