export { startTrpd, type RunningTrpd, type StartTrpdOptions } from "./start-trpd.js";
export { trpdConfigFromEnv, type TrpdConfig } from "./trpd-config.js";
export { buildTrpdSchema, trpdSchemaFile } from "./trpd-schema.js";
export { vasps, type Vasp } from "./vasps.js";
export { transfersForAddress, type Transfer } from "./transfers-for-address.js";
