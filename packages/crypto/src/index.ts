/**
 * @sealbox/crypto: the key hierarchy and formats of docs/protocol.md, as pure functions over
 * globalThis.crypto and hash-wasm. Runs unchanged in Bun, browser workers and service workers.
 */
export { CryptoError, isCryptoError, type CryptoErrorCode } from './errors.ts';
export { type Bytes, concat, toBase64, fromBase64, toBase64Url, fromBase64Url, toHex } from './bytes.ts';
export {
  type KdfParams,
  type AccountKdf,
  KDF_V1,
  KDF_MINIMUM,
  checkKdfParams,
  checkAccountKdf,
  deriveLoginPassword,
  deriveWrappingKey,
} from './kdf.ts';
export { type KdfParamsV2, KDF_V2, checkKdfParamsV2, derivePasswordKeysV2 } from './kdf-v2.ts';
export {
  type AccountKeys,
  type SealedAccount,
  type SealedInput,
  type Registration,
  type KdfUpgrade,
  type UnlockOptions,
  createAccount,
  unlockAccount,
  upgradeAccount,
  changeAccountPassword,
  passwordKeys,
} from './account.ts';
export {
  type RecoveryCopy,
  type RecoveryInput,
  type RecoveryReset,
  type RecoverySetup,
  RECOVERY_WORDS,
  newRecoveryPhrase,
  phraseEntropy,
  recoveryWordProblem,
  recoveryKeys,
  makeRecovery,
  recoverAccount,
} from './recovery.ts';
export {
  newItemId,
  newItemKey,
  checkItemId,
  encryptName,
  decryptName,
  encryptMime,
  decryptMime,
  wrapItemKey,
  sealFileMetadata,
  unwrapItemKey,
} from './item.ts';
export { type ShareGrant, wrapKeyForUser, unwrapKeyFromUser, signGrant, verifyGrant } from './share.ts';
export { sha256Hex, fingerprint, formatFingerprint, checkPinnedKey, type PinCheck } from './fingerprint.ts';
export { encodeLinkKey, decodeLinkKey } from './link.ts';
export { type Pins, sealPins, openPins } from './pins.ts';
export {
  CHUNK,
  CIPHER_CHUNK,
  chunkCount,
  ciphertextSize,
  plaintextSize,
  chunkCipherRange,
  cipherRangeForPlain,
  newFileNonce,
  PART_CHUNKS,
  PART_BYTES,
  partCount,
  partRange,
  decryptChunkAt,
  chunkTags,
} from './content.ts';
export { KEY_BYTES, NONCE_BYTES, TAG_BYTES } from './aead.ts';
export { ciphertextTags, partFingerprint, partPlainRange, tagsFingerprint } from './part-fingerprints.ts';
export { createEncryptStream, createDecryptStream, decryptBody, encryptBody, type StreamOptions } from './content-streams.ts';
export { deriveSearchIndexKey, SEARCH_INDEX_INFO } from './search-index.ts';
