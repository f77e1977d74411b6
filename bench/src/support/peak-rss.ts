import { readFileSync } from "node:fs";

/** Resident set size of one process, in bytes; 0 when it is gone. Linux only (/proc). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** RSS of a process and all its descendants: a server with cluster workers counts as one. */
export function treeRss(pid: number): number {
  return rssOf(pid) + childrenOf(pid).reduce((sum, child) => sum + treeRss(child), 0);
}

/**
 * Samples the RSS of a process tree while a load runs and keeps the highest sum. Sampling rather
 * than the kernel's per-process peak (VmHWM) because a server's peak must be measured per run, and
 * the sum of per-worker peaks reached at different moments would overstate a cluster.
 * @param intervalMs @default 100 // milliseconds
 */
export function samplePeakRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = treeRss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRss(pid));
    },
  };
}
