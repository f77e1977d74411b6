// The worker thread's entry: the project runs TypeScript through tsx, so the worker registers tsx
// itself before loading the search. It does not rely on inheriting `--import tsx` from the parent,
// which test runners and other launchers do not pass on.
import { register } from "tsx/esm/api";

register();
await import("./xpub-search-worker.ts");
