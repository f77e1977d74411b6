import { context, trace, type Context, type Span } from "@opentelemetry/api";

/**
 * Runs `answer` with `span` active, when there is something to carry: a span that records, or a
 * caller's trace (sampled out, but its id still goes on to subgraphs and into logs). Otherwise
 * `answer` runs as it would untraced, because entering a context is what switches on Node's
 * async-context tracking (AsyncLocalStorage's promise hooks before Node 24), which then costs every
 * later promise of the process, traced or not.
 */
export function inSpanContext<T>(span: Span, parent: Context, answer: () => T): T {
  if (!span.isRecording() && !trace.getSpanContext(parent)) return answer();
  return context.with(trace.setSpan(parent, span), answer);
}
