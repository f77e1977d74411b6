import { pino, type Logger } from "pino";

export type { Logger };

/**
 * Structured JSON logs on standard output, one object per line, so any log shipper can index
 * them. `LOG_LEVEL` picks the level (default `info`; tests run with `silent`).
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
