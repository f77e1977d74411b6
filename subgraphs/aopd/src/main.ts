import { createLogger, onShutdownSignal } from "@compliance-graph/server-kit";
import { startAopd } from "./start-aopd.js";

/** The aopd deployable: `node --import tsx subgraphs/aopd/src/main.ts`, configured by the environment. */
const logger = createLogger("aopd");
const aopd = await startAopd({ logger });
onShutdownSignal(logger, () => aopd.close());
