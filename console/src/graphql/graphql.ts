import { print } from "@0no-co/graphql.web";
import { initGraphQLTada, type TadaDocumentNode } from "gql.tada";
import type { introspection } from "./api-introspection.js";

/**
 * Every GraphQL document of the console is written with this `graphql()` tag, which gql.tada types
 * from `api-introspection.d.ts`: the gateway's API schema, generated from `supergraph.graphql` by
 * `npm run generate`. A selection the schema no longer has, an argument of the wrong type or an
 * enum value it does not know fails `npm run typecheck`, not an officer (docs/console.md, "Typed
 * from the schema"). Fragments are not masked: a screen reads the fields its fragments select
 * straight from the result, as it did when the types were written by hand.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  disableMasking: true;
  // The API's custom scalars, as JSON carries them: each is written as a string (supergraph.graphql describes each).
  scalars: {
    Amount: string;
    AopdAoppPortalUrl: string;
    AopdAoppUri: string;
    Binary: string;
    DateTime: string;
  };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from "gql.tada";

/** A document typed with its result and variables, as `graphql()` returns it. */
export type TypedDocument<Result = unknown, Variables = Record<string, unknown>> = TadaDocumentNode<Result, Variables>;

/**
 * Whether `unknown` is anywhere in a type. gql.tada types a field the schema does not have (or a
 * variable of a type it does not have) as `unknown`, and reports it only in an editor with its
 * plugin; `SchemaChecked` turns it into an error of `tsc`, so `npm run typecheck` refuses it.
 */
export type HasUnknown<T> = unknown extends T
  ? true
  : T extends readonly (infer Item)[]
    ? HasUnknown<Item>
    : T extends object
      ? true extends { [Key in keyof T]-?: HasUnknown<T[Key]> }[keyof T]
        ? true
        : false
      : false;

/** Nothing for a document the schema types in full; a property no document has (a type error) for one it does not. */
export type SchemaChecked<Result, Variables> = true extends HasUnknown<Result> | HasUnknown<Variables>
  ? { readonly "selects a field or names a type the API schema does not have": never }
  : unknown;

const printed = new WeakMap<object, string>();

/** The document's text, as sent to the gateway (printed once per document). */
export function documentText(document: TypedDocument<unknown, never>): string {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document);
    printed.set(document, text);
  }
  return text;
}
