import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LibrarySpansInRecordedTraces } from "./library-spans-in-recorded-traces.js";
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";

export interface Tracing {
  enabled: boolean;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

let enabled = false;
const projectTracerName = "compliance-graph";

/** Whether this process records spans: without an OTLP endpoint nothing is traced and nothing costs. */
export function isTracingEnabled(): boolean {
  return enabled;
}

/** The project's tracer (a no-op one while tracing is off). */
export function projectTracer(): Tracer {
  return trace.getTracer(projectTracerName);
}

/**
 * OpenTelemetry tracing for this process, when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set: spans exported with OTLP over HTTP (JSON) in batches,
 * W3C `traceparent` read from callers and sent to subgraphs, `OTEL_TRACES_SAMPLER_ARG` the share
 * of new traces sampled (a caller's sampling decision is kept), `OTEL_SERVICE_NAME` the service.
 * Without an endpoint it registers nothing and returns at once: tracing off is free.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const tracesEndpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!tracesEndpoint) return { enabled: false, shutdown: async () => {} };
  const ratio = env.OTEL_TRACES_SAMPLER_ARG === undefined || env.OTEL_TRACES_SAMPLER_ARG === "" ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG);
  if (!(ratio >= 0 && ratio <= 1)) throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got ${JSON.stringify(env.OTEL_TRACES_SAMPLER_ARG)}.`);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesEndpoint }), { scheduledDelayMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new LibrarySpansInRecordedTraces(provider, projectTracerName));
  enabled = true;
  return {
    enabled: true,
    shutdown: async () => {
      enabled = false;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
