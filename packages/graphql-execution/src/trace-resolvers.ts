import { SpanStatusCode, trace } from "@opentelemetry/api";
import { defaultFieldResolver, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from "graphql";
import { projectTracer } from "@compliance-graph/process-shell";

/**
 * Wraps the resolvers that do I/O in a span each, active while they run (so their SQL statements
 * are its children): the root fields (`Query`, `Mutation`, `_entities`) and the fields of the
 * namespace types those return (`Aopd.proofs`, ...). Deeper fields read what these loaded, and a
 * span for each of thousands of cells would cost more than it tells. Called once at start, only
 * while tracing is on.
 */
export function traceResolvers(schema: GraphQLSchema): void {
  const roots = [schema.getQueryType(), schema.getMutationType()].filter((type): type is GraphQLObjectType => type != null);
  const namespaces = new Set<GraphQLObjectType>();
  for (const root of roots) {
    for (const field of Object.values(root.getFields())) {
      wrap(root, field);
      const returned = field.type;
      const named = "ofType" in returned && returned.ofType ? returned.ofType : returned;
      if (isObjectType(named) && !roots.includes(named)) namespaces.add(named);
    }
  }
  for (const namespace of namespaces) for (const field of Object.values(namespace.getFields())) wrap(namespace, field);
}

function wrap(parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>): void {
  const resolve = field.resolve ?? defaultFieldResolver;
  const name = `resolve ${parent.name}.${field.name}`;
  const attributes = { "graphql.field.path": `${parent.name}.${field.name}` };
  field.resolve = (source, args, contextValue, info) => {
    // A trace sampled out records nothing: the resolver runs as it would untraced.
    if (!trace.getActiveSpan()?.isRecording()) return resolve(source, args, contextValue, info);
    return projectTracer().startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await resolve(source, args, contextValue, info);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
  };
}
