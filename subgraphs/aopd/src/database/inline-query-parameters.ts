import { createRequire } from "node:module";
import { escapeLiteral } from "pg";

// `pg`'s own conversion of a parameter to the text it sends; the package declares no type for it.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils") as { prepareValue: (value: unknown) => unknown };

/**
 * The SQL of a compiled query with its `$n` parameters written in as literals, for the statements
 * that take no parameters (`COPY (SELECT ...) TO STDOUT`). Each value becomes exactly the text
 * `pg` would have sent as the parameter (`prepareValue`), quoted by `escapeLiteral`: an untyped
 * literal, which PostgreSQL types from its context as it types an untyped parameter, so the query
 * means what it meant with parameters. Placeholders are only looked for outside quotes, so that a
 * literal or identifier of the query itself is never changed.
 */
export function inlineQueryParameters(sql: string, parameters: readonly unknown[]): string {
  let inlined = "";
  let index = 0;
  while (index < sql.length) {
    const character = sql[index] as string;
    if (character === "'" || character === '"') {
      const close = sql.indexOf(character, index + 1);
      if (close < 0) throw new Error("The query has an unclosed quote.");
      inlined += sql.slice(index, close + 1);
      index = close + 1;
      continue;
    }
    const placeholder = character === "$" ? /^\$(\d+)/.exec(sql.slice(index, index + 12)) : null;
    if (!placeholder) {
      inlined += character;
      index += 1;
      continue;
    }
    const position = Number(placeholder[1]);
    if (position < 1 || position > parameters.length) throw new Error(`The query refers to parameter $${position} of ${parameters.length}.`);
    inlined += literalOf(parameters[position - 1]);
    index += placeholder[0].length;
  }
  return inlined;
}

function literalOf(value: unknown): string {
  const prepared: unknown = prepareValue(value);
  if (prepared === null || prepared === undefined) return "NULL";
  if (typeof prepared !== "string") throw new Error(`A ${typeof prepared} parameter cannot be written as a literal.`);
  return escapeLiteral(prepared);
}
