/** The commands of `npm run subgraph --` (docs/schema-registry.md, "The command line"). */
export type SubgraphCommand = "check" | "publish" | "history" | "rollback" | "remove";

export interface CliArguments {
  command: SubgraphCommand;
  name?: string;
  url?: string;
  schema?: string;
  routes?: string;
  to?: number;
  force: boolean;
  reason?: string;
  json: boolean;
  limit?: number;
}

/** The command line is wrong: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const usage = `Usage: npm run subgraph -- <command> [options]
  check    --name N --url U --schema FILE            compose and classify against what is served
  publish  --name N --url U --schema FILE [--routes FILE] [--force --reason TEXT]
  history  [--name N] [--limit N]
  rollback --to VERSION
  remove   --name N [--force --reason TEXT]
Options: --json (machine-readable output). Environment: GRAPH_URL (default http://localhost:4000),
GRAPH_TOKEN, or GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET with GRAPH_TOKEN_URL or GRAPH_ISSUER_URL.
Exit codes: 0 safe or done; 1 refused (composition fails, breaking change in use, publish refused); 2 could not run.`;

const commands = new Set<SubgraphCommand>(["check", "publish", "history", "rollback", "remove"]);
const valued = new Set(["--name", "--url", "--schema", "--routes", "--to", "--reason", "--limit"]);
const required: Record<SubgraphCommand, string[]> = {
  check: ["--name", "--url", "--schema"],
  publish: ["--name", "--url", "--schema"],
  history: [],
  rollback: ["--to"],
  remove: ["--name"],
};
const allowed: Record<SubgraphCommand, string[]> = {
  check: ["--name", "--url", "--schema", "--json"],
  publish: ["--name", "--url", "--schema", "--routes", "--force", "--reason", "--json"],
  history: ["--name", "--limit", "--json"],
  rollback: ["--to", "--json"],
  remove: ["--name", "--force", "--reason", "--json"],
};

export function parseCliArguments(argv: readonly string[]): CliArguments {
  const [command, ...rest] = argv;
  if (!command || !commands.has(command as SubgraphCommand))
    throw new UsageError(`The command must be one of ${[...commands].join(", ")}; got ${JSON.stringify(command ?? "")}.`);
  const which = command as SubgraphCommand;
  const given = new Map<string, string | true>();
  for (let index = 0; index < rest.length; index += 1) {
    const option = rest[index] as string;
    if (!allowed[which].includes(option)) throw new UsageError(`${option} is not an option of ${which}; allowed: ${allowed[which].join(", ")}.`);
    if (valued.has(option)) {
      const value = rest[index + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${option} needs a value.`);
      given.set(option, value);
      index += 1;
    } else given.set(option, true);
  }
  for (const option of required[which]) if (!given.has(option)) throw new UsageError(`${which} needs ${option}.`);
  if (given.has("--force") && !given.has("--reason")) throw new UsageError("--force needs --reason TEXT: the history keeps why.");
  if (given.has("--reason") && !given.has("--force")) throw new UsageError("--reason goes with --force.");
  const text = (option: string) => given.get(option) as string | undefined;
  const whole = (option: string): number | undefined => {
    const value = text(option);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${option} must be a whole number of at least 1; got ${JSON.stringify(value)}.`);
    return Number(value);
  };
  const parsed: CliArguments = { command: which, force: given.has("--force"), json: given.has("--json") };
  for (const [option, key] of [
    ["--name", "name"],
    ["--url", "url"],
    ["--schema", "schema"],
    ["--routes", "routes"],
    ["--reason", "reason"],
  ] as const) {
    const value = text(option);
    if (value !== undefined) parsed[key] = value;
  }
  const to = whole("--to");
  if (to !== undefined) parsed.to = to;
  const limit = whole("--limit");
  if (limit !== undefined) parsed.limit = limit;
  return parsed;
}
