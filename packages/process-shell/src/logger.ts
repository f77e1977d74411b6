import { trace } from "@opentelemetry/api";
import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/** The trace of the span active when a line is logged, so logs and traces join on `traceId`. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/**
 * Structured JSON logs on standard output, one object per line, so any log shipper can index
 * them. `LOG_LEVEL` picks the level (default `info`; tests run with `silent`). Lines logged inside a
 * traced request carry its `traceId` and `spanId`. `destination`: where lines go. @default standard output
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream): Logger {
  const options = { level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, mixin: traceFields };
  return destination ? pino(options, destination) : pino(options);
}
