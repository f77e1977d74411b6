import type { AopdConfig } from "../aopd-config.js";
import { chainConnectionFor } from "../chain/chain-checks-config.js";
import { decisionReasons } from "../decisions/decision-reason.js";
import { officerAssessedKinds, proofKinds } from "../kinds/proof-kinds.js";

/** `AopdConfiguration` as the API shows it, from the operator's configuration. */
export function configurationOf(config: AopdConfig) {
  return {
    portalUrl: config.portalUrl,
    callbackBaseUrl: config.callbackBaseUrl,
    signatureProofLifetimeSeconds: config.signatureProofLifetimeSeconds,
    satoshiProofLifetimeSeconds: config.satoshiProofLifetimeSeconds,
    satoshiBaseAmounts: Object.entries(config.satoshiBaseAmounts).map(([asset, amount]) => ({ asset, amount })),
    supportedAssets: config.assets.assets.map((asset) => {
      // Only whether and how deep: the connection's URL may carry a key and is never shown.
      const connection = chainConnectionFor(config.chain, asset);
      return {
        asset: asset.code,
        name: asset.name,
        registryName: asset.registryName ?? null,
        symbol: asset.symbol,
        network: asset.network,
        standard: asset.standard,
        contract: asset.contract,
        decimals: asset.decimals,
        addressFamily: asset.addressFamily,
        checkedOnChain: connection !== undefined,
        requiredConfirmations: connection?.confirmations ?? null,
      };
    }),
    maxMessageLength: config.maxMessageLength,
    maxResultRows: config.maxResultRows ?? null,
    maxExportRows: config.maxExportRows,
    eventRetentionDays: config.eventRetentionDays,
    decisionReasons,
    proofKinds: proofKinds.map((kind) => ({
      name: kind.name,
      proofType: kind.typename,
      decidedByOfficer: kind.decidedBy === "officer",
      decidedByOfficerWhenLeftForReview: officerAssessedKinds.includes(kind.name),
      decisionReasons: kind.decisionReasons,
      fourEyes: config.fourEyesKinds.includes(kind.name),
    })),
  };
}
