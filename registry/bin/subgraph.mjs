#!/usr/bin/env node
// The `subgraph` command of @compliance-graph/registry, installed as a package: the TypeScript
// source runs through tsx, as everywhere in this project.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
