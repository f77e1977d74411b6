import type { UsageHit } from "../usage/usage-store.js";
import type { ClassifiedChange } from "./classify-changes.js";
import type { CompositionProblem } from "./compose-subgraphs.js";

/** What a check found: the answer of `check`, and what `publish` records as a version's diff. */
export interface CheckReport {
  /** The subgraph checked. */
  subgraph: string;
  /** Safe to publish: it composes and no breaking change touches a coordinate used in the window. */
  safe: boolean;
  /** The version the changes are classified against; null while nothing is published. */
  servedVersion: number | null;
  /** Composition's problems (empty when it composes). */
  compositionErrors: CompositionProblem[];
  changes: ClassifiedChange[];
  /** The breaking changes' coordinates used by recorded operations within the window. */
  usage: UsageHit[];
  usageWindowDays: number;
}
