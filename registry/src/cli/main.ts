// `npm run subgraph -- check|publish|history|rollback|remove ...`, and the `subgraph` bin of the package.
import { parseCliArguments, usage, UsageError } from "./cli-arguments.js";
import { runSubgraphCommand } from "./run-subgraph-command.js";

try {
  const outcome = await runSubgraphCommand(parseCliArguments(process.argv.slice(2)));
  (outcome.exitCode === 2 ? process.stderr : process.stdout).write(`${outcome.output}\n`);
  process.exitCode = outcome.exitCode;
} catch (error) {
  process.stderr.write(error instanceof UsageError ? `${error.message}\n\n${usage}\n` : `The command could not run: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
