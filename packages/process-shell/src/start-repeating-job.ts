import type { Logger } from "./logger.js";

/**
 * Runs `pass` now and then every `intervalSeconds` after the previous pass ended (never two at
 * once), in the background. A pass returns whether it left work behind (a full batch): then the next
 * one starts at once, so a backlog drains quickly. A failed pass is logged and retried at the next
 * interval. Returns the stop function, which waits for a running pass to finish.
 */
export function startRepeatingJob(name: string, intervalSeconds: number, pass: () => Promise<boolean>, logger: Logger): () => Promise<void> {
  if (intervalSeconds <= 0) return async () => {};
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const runPasses = async () => {
    try {
      while ((await pass()) && !stopped);
    } catch (error) {
      logger.error({ err: error, job: name }, `${name} failed; retrying at the next interval`);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runPasses().finally(schedule);
    }, intervalSeconds * 1_000);
    timer.unref();
  };
  running = runPasses().finally(schedule);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
