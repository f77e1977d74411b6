import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { CheckReport } from "../check/check-report.js";
import type { CliArguments } from "./cli-arguments.js";
import { describeCheck } from "./describe-outcome.js";
import { graphToken } from "./graph-token.js";

/** What a command printed and how it ends: 0 safe or done, 1 refused, 2 could not run. */
export interface CommandOutcome {
  exitCode: 0 | 1 | 2;
  output: string;
}

/** Whatever stopped the command from running (a file, the network, a token, the registry's refusal of the request itself): exit code 2. */
class CouldNotRun extends Error {}

/**
 * Runs one command against the gateway at `GRAPH_URL` (its `/registry/` routes). Every wait is
 * bounded by `GRAPH_TIMEOUT_SECONDS` (default 60).
 */
export async function runSubgraphCommand(args: CliArguments, env: NodeJS.ProcessEnv = process.env): Promise<CommandOutcome> {
  const timeoutSeconds = Number(env.GRAPH_TIMEOUT_SECONDS ?? 60);
  const signal = AbortSignal.timeout((Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : 60) * 1_000);
  const base = (env.GRAPH_URL ?? "http://localhost:4000").replace(/\/$/, "");
  try {
    const token = await graphToken(env, signal).catch((error: Error) => {
      throw new CouldNotRun(error.message);
    });
    const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal,
        });
      } catch (error) {
        throw new CouldNotRun(`The gateway at ${base} could not be reached: ${(error as Error).message}.`);
      }
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      // 409 is the registry's refusal of a publish or remove: an answer, not a failure to run.
      if (!response.ok && response.status !== 409) {
        const reason = typeof answer.reason === "string" ? answer.reason : JSON.stringify(answer);
        throw new CouldNotRun(`The registry answered ${response.status}${typeof answer.error === "string" ? ` (${answer.error})` : ""}: ${reason}`);
      }
      return { status: response.status, body: answer };
    };
    const read = async (file: string, what: string) =>
      readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new CouldNotRun(`The ${what} file ${file} cannot be read (${error.code ?? error.message}).`);
      });
    const print = (value: unknown, text: string) => (args.json ? JSON.stringify(value, null, 2) : text);

    switch (args.command) {
      case "check": {
        const { body } = await call("POST", "/registry/subgraphs/check", {
          name: args.name,
          url: args.url,
          schema: await read(args.schema as string, "schema"),
        });
        const report = body as unknown as CheckReport;
        return { exitCode: report.safe && report.compositionErrors.length === 0 ? 0 : 1, output: print(report, describeCheck(report)) };
      }
      case "publish": {
        const request: Record<string, unknown> = { name: args.name, url: args.url, schema: await read(args.schema as string, "schema") };
        if (args.routes) request.routes = routesFrom(await read(args.routes, "routes"), args.routes);
        if (args.force) Object.assign(request, { force: true, reason: args.reason });
        const { body } = await call("POST", "/registry/subgraphs/publish", request);
        const report = body.check as CheckReport;
        const published = body.published === true;
        const verdict = published
          ? body.unchanged
            ? `${args.name}: unchanged, version ${String(body.version)} serves it`
            : `${args.name}: published as version ${String(body.version)}${body.forced ? ` (forced: ${args.reason})` : ""}`
          : `${args.name}: publish refused`;
        return { exitCode: published ? 0 : 1, output: print(body, `${describeCheck(report)}\n${verdict}`) };
      }
      case "remove": {
        const { body } = await call("POST", "/registry/subgraphs/remove", { name: args.name, ...(args.force ? { force: true, reason: args.reason } : {}) });
        const published = body.published === true;
        return {
          exitCode: published ? 0 : 1,
          output: print(
            body,
            `${describeCheck(body.check as CheckReport)}\n${published ? `${args.name}: removed in version ${String(body.version)}` : `${args.name}: removal refused`}`,
          ),
        };
      }
      case "rollback": {
        const { body } = await call("POST", "/registry/subgraphs/rollback", { to: args.to });
        return {
          exitCode: 0,
          output: print(
            body,
            body.unchanged
              ? `version ${String(body.version)} already serves version ${args.to}'s supergraph`
              : `rolled back to version ${args.to} as version ${String(body.version)}`,
          ),
        };
      }
      case "history": {
        const query = new URLSearchParams();
        if (args.name) query.set("name", args.name);
        if (args.limit) query.set("limit", String(args.limit));
        const { body } = await call("GET", `/registry/subgraphs/history${query.size ? `?${query}` : ""}`);
        const versions = body.versions as {
          version: number;
          subgraph: string;
          action: string;
          client: string;
          subject: string;
          at: string;
          reason: string | null;
          supergraphSha256: string;
        }[];
        // A registry from before owner changes were recorded answers without them.
        const ownerChanges = (body.ownerChanges ?? []) as { subgraph: string; client: string; subject: string; at: string; from: string[]; to: string[] }[];
        const lines = [
          ...versions.map((entry) => ({
            at: entry.at,
            text: `${String(entry.version).padStart(5)}  ${entry.at}  ${entry.action.padEnd(8)} ${entry.subgraph}  by ${entry.client} (${entry.subject})  ${entry.supergraphSha256.slice(0, 12)}${entry.reason ? `  reason: ${entry.reason}` : ""}`,
          })),
          ...ownerChanges.map((entry) => ({
            at: entry.at,
            text: `${"".padStart(5)}  ${entry.at}  ${"owners".padEnd(8)} ${entry.subgraph}  by ${entry.client} (${entry.subject})  from ${entry.from.join(", ")} to ${entry.to.join(", ")}`,
          })),
        ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
        return { exitCode: 0, output: print(body, lines.map((line) => line.text).join("\n") || "no versions yet") };
      }
    }
  } catch (error) {
    if (error instanceof CouldNotRun) return { exitCode: 2, output: args.json ? JSON.stringify({ error: error.message }) : error.message };
    throw error;
  }
}

/** `--routes FILE`: a `subgraph-routes.yaml` (a `routes:` list), or a bare list; YAML or JSON. */
function routesFrom(text: string, file: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    throw new CouldNotRun(`The routes file ${file} is not YAML or JSON.`);
  }
  const routes = Array.isArray(parsed) ? parsed : (parsed as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) throw new CouldNotRun(`The routes file ${file} must hold a routes: list (subgraph-routes.yaml's shape).`);
  return routes;
}
