/** One table of a benchmark report: a scenario's figures, rendered into docs/benchmarks.md. */
export interface BenchmarkTable {
  title: string;
  /** What was measured and how, in a sentence or two. */
  method: string;
  columns: string[];
  rows: (string | number)[][];
  /** Notes under the table (aims, observations). */
  notes?: string[];
  /** A chart of the table, written as an SVG file beside the report and linked under the table. */
  chart?: { name: string; title: string; svg: string };
}

export interface BenchmarkScenario {
  name: string;
  /** Runs the scenario and returns its tables; it starts and stops everything it needs. */
  run(options: { quick: boolean }): Promise<BenchmarkTable[]>;
}

/** `chartFile`: the table's chart, relative to the report, when it has one. */
export function renderTable(table: BenchmarkTable, chartFile?: string): string {
  const header = `| ${table.columns.join(" | ")} |\n| ${table.columns.map(() => "---").join(" | ")} |`;
  const body = table.rows.map((row) => `| ${row.join(" | ")} |`).join("\n");
  const notes = (table.notes ?? []).map((note) => `- ${note}`).join("\n");
  const chart = table.chart && chartFile ? `\n![${table.chart.title}](${chartFile})\n` : "";
  return `### ${table.title}\n\n${table.method}\n\n${header}\n${body}\n${notes ? `\n${notes}\n` : ""}${chart}`;
}
