import { readFileSync } from "node:fs";
import { childrenOf } from "./peak-rss.js";

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux everywhere we run). */
const ticksPerSecond = 100;

/** CPU time (user + system) one process has used so far, in milliseconds; 0 when it is gone. Linux only (/proc). */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** CPU time of a process and all its live descendants (cluster workers), in milliseconds. */
export function treeCpuMs(pid: number): number {
  return cpuMsOf(pid) + childrenOf(pid).reduce((sum, child) => sum + treeCpuMs(child), 0);
}
