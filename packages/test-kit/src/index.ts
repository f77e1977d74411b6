/** The test kit: what the tests and benchmarks of more than one workspace share. */
export {
  bip322WitnessPublicKeyHash,
  encodeWitness,
  p2pkhAddress,
  p2shP2wpkhAddress,
  p2trAddress,
  p2wpkhAddress,
  publicKeyOf,
  secretFromWif,
  signBip322PublicKeyHash,
  signBip322Taproot,
  signLegacy,
  taprootKeyPair,
  testSecretKey,
  type Hrp,
} from "./bitcoin-test-wallet.js";
export {
  bip322ToSignTransaction,
  multisigVault,
  signBip322Script,
  signPsbtAsCoordinator,
  taprootVault,
  vaultKeys,
  type VaultPayment,
} from "./bitcoin-vault-wallet.js";
export { createTestDatabase } from "./create-test-database.js";
export { ethereumAddressOf, signPersonalMessage } from "./ethereum-test-wallet.js";
export { anvilAccounts, minimalTokenBytecode, startLocalAnvil, type LocalAnvil } from "./local-anvil.js";
export { erc1271MagicValue, erc1271WalletBytecode } from "./erc1271-test-wallet.js";
export { jpegHeader, mp4Header, padded, pngImage, webmHeader, webpExtendedHeader, webpLosslessHeader } from "./media-samples.js";
export { pollUntil, type PollOptions } from "./poll-until.js";
export { parsedFilter, proofQueryCases, type ProofQueryCase } from "./proof-query-cases.js";
export { excelNumberToIso, readWorkbook, worksheetXml, type ReadCell, type ReadSheet } from "./read-workbook.js";
export { signSolanaMessage, solanaAddressOf } from "./solana-test-wallet.js";
export { freePort, startProcess, type BenchProcess, type ReadyCheck } from "./start-process.js";
export { signTronMessage, tronAddressOf } from "./tron-test-wallet.js";
export { fetchToken } from "./fetch-token.js";
export { launchBrowser } from "./launch-browser.js";
export { postGraphQL, type GraphQLBody } from "./post-graphql.js";
