import { cosignatureV1Key, parseVerifierKey, type NoteVerifier } from "./signed-note.js";

/** `AOPD_AUDIT_WITNESS_KEYS`: the witnesses' cosignature/v1 verifier keys, separated by commas or line breaks. */
export function parseWitnessKeys(text: string | undefined): NoteVerifier[] {
  const keys = (text ?? "")
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => parseVerifierKey(part, "AOPD_AUDIT_WITNESS_KEYS"));
  for (const key of keys) {
    if (key.type !== cosignatureV1Key)
      throw new Error(`AOPD_AUDIT_WITNESS_KEYS: the key of ${key.name} is not a cosignature/v1 key (type 0x04); a witness cosigns with one.`);
  }
  return keys;
}
