import type { Logger } from "./logger.js";

/**
 * Logs an outage of a dependency once when it starts and once when it ends, however many requests
 * fail meanwhile: a database that is down for a minute under load must not write a stack trace per
 * request.
 */
export class OutageLog {
  readonly #down = new Set<string>();

  constructor(private readonly logger: Logger) {}

  down(part: string, error: unknown): void {
    if (this.#down.has(part)) return;
    this.#down.add(part);
    this.logger.error({ err: error, part }, `${part} unavailable`);
  }

  up(part: string): void {
    if (this.#down.delete(part)) this.logger.info({ part }, `${part} available again`);
  }

  isDown(part: string): boolean {
    return this.#down.has(part);
  }
}
