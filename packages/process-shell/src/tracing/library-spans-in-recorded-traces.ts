import { context, INVALID_SPAN_CONTEXT, trace, type Context, type Span, type SpanOptions, type Tracer, type TracerProvider } from "@opentelemetry/api";

const notRecorded = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Libraries' spans (Apollo Gateway's request, plan, fetch...) only inside a recorded trace. Apollo
 * starts them whenever a tracer provider is registered: outside a recorded trace each would be a
 * root of its own (sampled by the ratio, so orphan traces beside the request's) or a span that
 * records nothing but still enters a context. Our own spans (`ownTracerName`) decide for themselves.
 */
export class LibrarySpansInRecordedTraces implements TracerProvider {
  constructor(
    private readonly provider: TracerProvider,
    private readonly ownTracerName: string,
  ) {}

  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): Tracer {
    const tracer = this.provider.getTracer(name, version, options);
    return name === this.ownTracerName ? tracer : new RecordedTracesOnlyTracer(tracer);
  }
}

class RecordedTracesOnlyTracer implements Tracer {
  constructor(private readonly tracer: Tracer) {}

  startSpan(name: string, options?: SpanOptions, parent: Context = context.active()): Span {
    return trace.getSpan(parent)?.isRecording() ? this.tracer.startSpan(name, options, parent) : notRecorded;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const answer = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : {};
    const parent = rest.length === 3 ? rest[1] : context.active();
    if (!trace.getSpan(parent)?.isRecording()) return answer(notRecorded) as ReturnType<F>;
    return this.tracer.startActiveSpan(name, options, parent, answer);
  }
}
