import { context, propagation, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { AlwaysOffSampler, AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type Sampler } from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { inSpanContext } from "../src/tracing/in-span-context.js";
import { LibrarySpansInRecordedTraces } from "../src/tracing/library-spans-in-recorded-traces.js";

const exporter = new InMemorySpanExporter();

function tracers(sampler: Sampler) {
  const provider = new LibrarySpansInRecordedTraces(new BasicTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] }), "ours");
  return { ours: provider.getTracer("ours"), library: provider.getTracer("apollo/gateway-js") };
}

describe("spans and contexts outside a recorded trace", () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterEach(() => exporter.reset());

  it("runs a library's span as nothing when no recorded span is active: no root of its own, no context entered", async () => {
    const { library } = tracers(new AlwaysOnSampler());
    const answer = await library.startActiveSpan("gateway.request", async (span) => {
      expect(span.isRecording()).toBe(false);
      return trace.getActiveSpan();
    });
    expect(answer).toBeUndefined();
    library.startSpan("gateway.fetch").end();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("records a library's spans under a recorded span of ours, with the right parent", async () => {
    const { ours, library } = tracers(new AlwaysOnSampler());
    const root = ours.startSpan("POST /graphql");
    await inSpanContext(root, ROOT_CONTEXT, () => library.startActiveSpan("gateway.request", async (span) => span.end()));
    root.end();
    const [child, parent] = exporter.getFinishedSpans();
    expect(child?.name).toBe("gateway.request");
    expect(child?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(parent?.spanContext().traceId);
  });

  it("enters no context for a span of ours sampled out without a caller's trace, and enters the caller's trace when there is one", () => {
    const { ours } = tracers(new AlwaysOffSampler());
    const sampledOut = ours.startSpan("POST /graphql");
    expect(inSpanContext(sampledOut, ROOT_CONTEXT, () => trace.getActiveSpan())).toBeUndefined();

    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callers = propagation.extract(ROOT_CONTEXT, { traceparent: `00-${traceId}-00f067aa0ba902b7-00` });
    const continued = ours.startSpan("POST /graphql", {}, callers);
    const active = inSpanContext(continued, callers, () => trace.getActiveSpan());
    expect(active?.isRecording()).toBe(false);
    expect(active?.spanContext().traceId).toBe(traceId);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
