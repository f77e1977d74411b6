import type { IncomingMessage, ServerResponse } from "node:http";
import { BadRequestError, LimitExceededError } from "@compliance-graph/errors";
import { BodyTooLargeError, MalformedBodyError, readJsonBody, sendGraphQLError } from "@compliance-graph/process-shell";

/**
 * Reads a GraphQL request's JSON body (POST only) within `maxBodyBytes`. A body over the limit is
 * answered 413 and a body that is not JSON 400, both as GraphQL errors; then the result is
 * `undefined` and the caller has nothing left to do.
 */
export async function readGraphQLBody(request: IncomingMessage, response: ServerResponse, maxBodyBytes: number): Promise<{ body: unknown } | undefined> {
  try {
    return { body: request.method === "POST" ? await readJsonBody(request, maxBodyBytes) : undefined };
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      sendGraphQLError(response, 413, new LimitExceededError("maxBodyBytes", maxBodyBytes, error.message));
      return undefined;
    }
    if (error instanceof MalformedBodyError) {
      sendGraphQLError(response, 400, new BadRequestError(error.message));
      return undefined;
    }
    throw error;
  }
}
