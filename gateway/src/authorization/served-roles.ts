/**
 * The roles the gateway serves: every role the supergraph it serves declares with `@requiresRole`,
 * and the roles of the subgraph routes. Threat: a grant the identity provider adds for some other
 * purpose (`offline_access`, another application's `admin`) must not reach a subgraph as a role,
 * where a subgraph that one day declares that name would honour it. So a token's grants are kept
 * only when one of these names them, and no list in this repository limits which roles exist: a
 * domain that publishes a subgraph declaring `kyc:review` makes that grant count, on every replica
 * once it serves that supergraph, and removing the domain makes it count no more.
 */
export class ServedRoles {
  #ofSupergraph: readonly string[] = [];
  #ofRoutes: readonly string[] = [];
  #all = new Set<string>();
  readonly #onChange: () => void;

  /** `onChange`: called when the set changes (verified identities computed with the old set are stale). */
  constructor(onChange: () => void = () => {}) {
    this.#onChange = onChange;
  }

  /** The roles the served supergraph declares (`RequiredRoles.declaredRoles()`). */
  setSupergraphRoles(roles: readonly string[]): void {
    this.#ofSupergraph = roles;
    this.#recompute();
  }

  /** The roles the subgraph routes served require. */
  setRouteRoles(roles: readonly (string | undefined)[]): void {
    this.#ofRoutes = roles.filter((role): role is string => role !== undefined);
    this.#recompute();
  }

  has(role: string): boolean {
    return this.#all.has(role);
  }

  /** Every role served, sorted. */
  list(): string[] {
    return [...this.#all].sort();
  }

  #recompute(): void {
    const next = new Set([...this.#ofSupergraph, ...this.#ofRoutes]);
    if (next.size === this.#all.size && [...next].every((role) => this.#all.has(role))) return;
    this.#all = next;
    this.#onChange();
  }
}
