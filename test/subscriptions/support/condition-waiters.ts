/**
 * Promises that settle once a condition on received data holds: `changed()` after each arrival
 * re-checks every pending `until`, which rejects after its timeout with `describe()` of what did
 * arrive.
 */
export function conditionWaiters<Subject>(subject: () => Subject, describe: () => string) {
  const waiters = new Set<() => void>();
  return {
    changed(): void {
      for (const waiter of [...waiters]) waiter();
    },
    until(predicate: (subject: Subject) => boolean, timeoutMs: number): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(subject())) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; ${describe()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
