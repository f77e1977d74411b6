import type { CheckReport } from "../check/check-report.js";

/** A check's report for a person: composition's problems, the breaking changes in use, then every change. */
export function describeCheck(report: CheckReport): string {
  const lines: string[] = [];
  for (const problem of report.compositionErrors) {
    const where = [
      problem.subgraphs.length ? `subgraph ${problem.subgraphs.join(", ")}` : "",
      problem.coordinates.length ? `at ${problem.coordinates.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(" ");
    lines.push(`composition error${where ? ` (${where})` : ""}: ${problem.message}`);
  }
  for (const hit of report.usage) {
    lines.push(
      `breaking change in use: ${hit.coordinate} was requested ${hit.requests} times in the last ${report.usageWindowDays} days by ${hit.clients.join(", ")}`,
    );
  }
  for (const change of report.changes) lines.push(`${change.level.padEnd(9)} ${change.message}`);
  if (lines.length === 0) lines.push(report.servedVersion === null ? "nothing served yet: the first version" : "no change to the API schema");
  lines.push(
    report.compositionErrors.length > 0
      ? `${report.subgraph}: does not compose`
      : report.safe
        ? `${report.subgraph}: safe to publish`
        : `${report.subgraph}: breaking changes touch coordinates in use`,
  );
  return lines.join("\n");
}
