export { ownershipFailure, type OwnershipFailure, type OwnershipFailureCode } from "./ownership-failure.js";
export { OwnershipInputError } from "./ownership-input-error.js";
export {
  parseBitcoinAddress,
  type BitcoinAddress,
  type BitcoinAddressFormat,
  type BitcoinNetwork,
  type ParsedBitcoinAddress,
} from "./parse-bitcoin-address.js";
export { parseEthereumAddress, toEip55Address, type ParsedEthereumAddress } from "./parse-ethereum-address.js";
export {
  addressMatchesFormat,
  bitcoinNetworkMatches,
  checkAddressFormat,
  verifiableFamilies,
  type AddressExpectation,
  type AssetFamily,
} from "./address-matches-format.js";
export {
  maxBitcoinSignatureLength,
  maxPsbtLength,
  verifyBitcoinMessage,
  type BitcoinMessageVerification,
  type BitcoinSignatureScheme,
} from "./verify-bitcoin-message.js";
export { maxScriptKeys, type ScriptSpend } from "./verify-bip322-script.js";
export { proofPsbt, psbtBase64Prefix } from "./verify-psbt-proof.js";
export { ethereumMessageHash, verifyEthereumMessage } from "./verify-ethereum-message.js";
export { parseSolanaAddress, type ParsedSolanaAddress } from "./parse-solana-address.js";
export { verifySolanaMessage } from "./verify-solana-message.js";
export { parseTronAddress, toTronAddress, type ParsedTronAddress } from "./parse-tron-address.js";
export { tronMessageHash, verifyTronMessage } from "./verify-tron-message.js";
export { parseExtendedPublicKey, type ExtendedPublicKey, type ParsedExtendedPublicKey, type XpubAddressForm } from "./parse-extended-public-key.js";
export { findXpubDerivation, type XpubDerivation } from "./find-xpub-derivation.js";
export { bitcoinKeyAddresses, keyAddressesOf, secp256k1KeyAddresses, type KeyAddress, type KeyAddressForm } from "./key-addresses.js";
export {
  verifyOwnershipSignature,
  type OwnershipSignatureInput,
  type OwnershipSignatureScheme,
  type OwnershipVerification,
} from "./verify-ownership-signature.js";
// The pieces a signing wallet shares with the verifier (the test kit's wallets build signatures from them).
export { p2wpkhScriptCode, segwitV0Sighash, taprootKeyPathSighash } from "./bip322-sighash.js";
export { bip322ToSpend } from "./bip322-virtual-transactions.js";
export { bitcoinMessageHash } from "./bitcoin-message-hash.js";
export { encodeCompactSize } from "./compact-size.js";
