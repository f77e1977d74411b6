import type { FormattedExecutionResult } from "graphql";

/**
 * An answer's `data` already written as JSON (by `ResponseWriter`), carried through Apollo Server's
 * pipeline in place of the object tree. Apollo Server passes `data` through untouched to
 * `stringifyResult`, which writes these bytes as they are; anything else that serialises it (a
 * plugin calling `JSON.stringify`) gets the same data through `toJSON`.
 */
export class SerializedData {
  constructor(readonly json: string) {}

  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * Apollo Server's `stringifyResult`: what its default (`prettyJSONStringify`: `JSON.stringify` of
 * `errors`, `data`, `extensions` in that order, and a newline) writes, byte for byte, with a
 * `SerializedData` copied in rather than walked again.
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  const data: unknown = result.data;
  if (!(data instanceof SerializedData)) return `${JSON.stringify({ errors: result.errors, data: result.data, extensions: result.extensions })}\n`;
  let json = "{";
  if (result.errors !== undefined) json += `"errors":${JSON.stringify(result.errors)},`;
  json += `"data":${data.json}`;
  if (result.extensions !== undefined) json += `,"extensions":${JSON.stringify(result.extensions)}`;
  return `${json}}\n`;
}
