/** The same seed writes the same proof ids, so a second run of one seed would collide on the key. */
export class SeedAlreadyUsedError extends Error {
  readonly code = "SEED_ALREADY_USED";

  constructor(readonly seed: number) {
    super(`The demo proofs of seed ${seed} are already in the database; choose another --seed, or leave it out to take the first unused one.`);
    this.name = "SeedAlreadyUsedError";
  }
}
