import type { IncomingMessage } from "node:http";
import { BodyTooLargeError, MalformedBodyError, readJsonBody } from "@compliance-graph/process-shell";
import { PublicRouteError } from "./public-route-error.js";

/** Reads a public route's JSON object body of at most `limitBytes`; refusals are `PublicRouteError`s. */
export async function readPublicBody(request: IncomingMessage, limitBytes: number): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await readJsonBody(request, limitBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new PublicRouteError("body_too_large", `The request body exceeds ${limitBytes} bytes.`);
    if (error instanceof MalformedBodyError) throw new PublicRouteError("invalid_body", "The request body is not valid JSON.");
    throw error;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new PublicRouteError("invalid_body", "The body must be a JSON object.");
  return body as Record<string, unknown>;
}

/** An optional string field of at most `maxLength` characters. */
export function optionalString(body: Record<string, unknown>, field: string, maxLength: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length > maxLength)
    throw new PublicRouteError("invalid_body", `${field} must be a string of at most ${maxLength} characters.`);
  return value;
}

export function requiredString(body: Record<string, unknown>, field: string, maxLength: number): string {
  const value = optionalString(body, field, maxLength);
  if (value === undefined || value.length === 0) throw new PublicRouteError("invalid_body", `${field} must be a string of 1 to ${maxLength} characters.`);
  return value;
}
