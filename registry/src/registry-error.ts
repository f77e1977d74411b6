/**
 * The registry's refusals: a small family with stable codes, so the command line and pipelines
 * `switch (error.code)`. The HTTP edge answers each with its status and `{ error: code, reason }`;
 * nothing else (a stack, SQL, a library's message) reaches a caller.
 */
export type RegistryErrorCode =
  /** The request is malformed; `reason` names the field and what is allowed. */
  | "invalid_input"
  /** The caller's client does not own the subgraph. */
  | "not_owner"
  /** The caller lacks the role. */
  | "forbidden"
  /** No such subgraph or version. */
  | "not_found"
  /** Nothing is published yet. */
  | "nothing_published";

const statusOf: Record<RegistryErrorCode, number> = {
  invalid_input: 400,
  not_owner: 403,
  forbidden: 403,
  not_found: 404,
  nothing_published: 404,
};

export class RegistryError extends Error {
  readonly status: number;

  constructor(
    readonly code: RegistryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RegistryError";
    this.status = statusOf[code];
  }
}
