export interface BarChartPanel {
  title: string;
  /** Unit shown after each value, e.g. "req/s" or "ms". */
  unit: string;
  /** values[group][series]; undefined draws no bar (a combination that was not measured). */
  values: (number | undefined)[][];
}

export interface BarChartOptions {
  /** Group labels along the x axis (the queries). */
  groups: string[];
  /** Bar labels within each group, shown in the legend (the gateways). */
  series: string[];
  panels: BarChartPanel[];
}

const palette = ["#1f6feb", "#d1242f", "#8250df", "#1a7f37", "#bf8700", "#57606a"];
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function format(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString("en") : value.toFixed(value >= 10 ? 1 : 2);
}

/**
 * A grouped bar chart as a standalone SVG: one panel per measure, one group of bars per query,
 * one bar per gateway with its value printed on top. Written by hand rather than with a charting
 * package so that the benchmark needs no browser or native dependency to draw it.
 */
export function renderBarChartSvg(options: BarChartOptions): string {
  const { groups, series, panels } = options;
  const barWidth = 26;
  const groupGap = 34;
  const groupWidth = series.length * barWidth + groupGap;
  const left = 60;
  const panelWidth = left + groups.length * groupWidth + 20;
  const panelHeight = 250;
  const plotTop = 40;
  const plotHeight = 160;
  const legendHeight = 30;
  const width = Math.max(panelWidth, left + series.length * 150);
  const height = legendHeight + panels.length * panelHeight;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  series.forEach((name, index) => {
    const x = left + index * 150;
    parts.push(`<rect x="${x}" y="10" width="12" height="12" fill="${palette[index % palette.length]}"/>`);
    parts.push(`<text x="${x + 16}" y="20">${escape(name)}</text>`);
  });
  panels.forEach((panel, panelIndex) => {
    const top = legendHeight + panelIndex * panelHeight;
    const max = Math.max(1e-9, ...panel.values.flat().filter((value): value is number => value !== undefined));
    const baseY = top + plotTop + plotHeight;
    parts.push(`<text x="${left}" y="${top + 22}" font-size="13" font-weight="600">${escape(panel.title)} (${escape(panel.unit)})</text>`);
    parts.push(`<line x1="${left - 4}" y1="${baseY}" x2="${width - 10}" y2="${baseY}" stroke="#8c959f"/>`);
    groups.forEach((group, groupIndex) => {
      const groupX = left + groupIndex * groupWidth;
      panel.values[groupIndex]?.forEach((value, seriesIndex) => {
        if (value === undefined) return;
        const barHeight = (value / max) * plotHeight;
        const x = groupX + seriesIndex * barWidth;
        parts.push(
          `<rect x="${x}" y="${(baseY - barHeight).toFixed(1)}" width="${barWidth - 3}" height="${barHeight.toFixed(1)}" fill="${palette[seriesIndex % palette.length]}"><title>${escape(`${series[seriesIndex]}, ${group}: ${format(value)} ${panel.unit}`)}</title></rect>`,
        );
        parts.push(`<text x="${x + (barWidth - 3) / 2}" y="${(baseY - barHeight - 3).toFixed(1)}" text-anchor="middle" font-size="9">${format(value)}</text>`);
      });
      parts.push(`<text x="${groupX + (series.length * barWidth) / 2}" y="${baseY + 16}" text-anchor="middle">${escape(group)}</text>`);
    });
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
