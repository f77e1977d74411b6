import { readFile, rename, writeFile } from "node:fs/promises";
import { parseCheckpoint, type ParsedCheckpoint } from "./audit-checkpoints.js";
import { auditCheckpointKeyPath, auditCheckpointPath, auditConsistencyPath, auditCosignaturePath } from "./audit-log-paths.js";
import { verifyConsistency } from "./merkle-tree.js";
import { cosignatureLine, cosignatureV1Key, noteSignedBy, parseNote, parseNoteSigner, parseVerifierKey, type NoteVerifier } from "./signed-note.js";

/** What a witness keeps between runs: the log it follows and the last checkpoint it verified. */
export interface WitnessState {
  /** The log's verifier key, taken on the first run and held from then on. */
  logKey: string;
  treeSize: number;
  rootHash: string;
  /** The last verified checkpoint note, as aopd served it. */
  checkpoint: string;
}

export interface WitnessRun {
  /** 0: the log extends what the witness saw (and it cosigned when given a key); 1: it does not, or a signature fails; 2: it could not be checked; 3: verified, but the cosignature was not delivered. */
  code: 0 | 1 | 2 | 3;
  lines: string[];
}

/** Every wait of the witness is bounded. */
const requestTimeoutMs = 30_000;

/**
 * One run of the audit log's witness (`npm run audit-witness`): fetches the log's latest
 * checkpoint from its public routes, verifies its signature with the key the witness holds,
 * checks it extends the last checkpoint it verified with an RFC 9162 consistency proof, and when
 * given a cosignature/v1 key, cosigns it (C2SP tlog-cosignature) and posts the cosignature back for
 * aopd to publish. The state advances only past a checkpoint that holds, so a log that forked or
 * was cut stays caught on every later run. Meant to run outside the database's trust: it needs
 * only the URL, and takes the log's key from it on the first run unless given the key (`logKey`,
 * the vkey the log's operator published out of band), which then is the only key it accepts.
 */
export async function runAuditWitness(options: { url: string; statePath: string; keyPath?: string; logKey?: string; now?: () => Date }): Promise<WitnessRun> {
  const lines: string[] = [];
  const base = options.url.replace(/\/+$/, "");
  let state: WitnessState | undefined;
  let logKey: NoteVerifier;
  let checkpointText: string;
  let checkpoint: ParsedCheckpoint;
  try {
    state = await readState(options.statePath);
    const givenKey = options.logKey?.trim();
    if (givenKey !== undefined) parseVerifierKey(givenKey, "--log-key");
    if (state && givenKey !== undefined && state.logKey !== givenKey)
      return {
        code: 2,
        lines: [`the state file follows the log key ${state.logKey}, not the one given (${givenKey}): use another state file for another log`],
      };
    const servedKey = (await fetchText(`${base}${auditCheckpointKeyPath}`)).trim();
    const heldKey = state?.logKey ?? givenKey;
    if (heldKey !== undefined && heldKey !== servedKey)
      lines.push(`note: the log serves the key ${servedKey}; this witness holds ${heldKey} and verifies with it`);
    logKey = parseVerifierKey(heldKey ?? servedKey, "the log's checkpoint key");
    if (!state)
      lines.push(`first run: following the log ${logKey.name} with ${givenKey !== undefined ? "the key given" : "the key it serves"}, ${verifierOf(logKey)}`);
    checkpointText = await fetchText(`${base}${auditCheckpointPath}`);
    checkpoint = parseCheckpoint(checkpointText);
  } catch (error) {
    return { code: 2, lines: [...lines, `the log could not be checked: ${(error as Error).message}`] };
  }
  if (checkpoint.origin !== logKey.name || !noteSignedBy(parseNote(checkpointText), logKey)) {
    return {
      code: 1,
      lines: [...lines, `the checkpoint of tree size ${checkpoint.treeSize} does not carry the signature of ${logKey.name} (${verifierOf(logKey)})`],
    };
  }
  if (state) {
    const previousRoot = Buffer.from(state.rootHash, "base64");
    if (checkpoint.treeSize < state.treeSize) {
      return {
        code: 1,
        lines: [
          ...lines,
          `the log is not an extension of what this witness saw: its tree size went back from ${state.treeSize} to ${checkpoint.treeSize} (entries after ${checkpoint.treeSize} were cut)`,
        ],
      };
    }
    if (checkpoint.treeSize === state.treeSize && !checkpoint.rootHash.equals(previousRoot)) {
      return {
        code: 1,
        lines: [
          ...lines,
          `the log is not an extension of what this witness saw: tree size ${state.treeSize} has another root than before (entries were rewritten)`,
        ],
      };
    }
    if (checkpoint.treeSize > state.treeSize) {
      let proof: Buffer[];
      try {
        const text = await fetchText(`${base}${auditConsistencyPath}?from=${state.treeSize}&to=${checkpoint.treeSize}`);
        proof = text
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => Buffer.from(line, "base64"));
      } catch (error) {
        return {
          code: 2,
          lines: [...lines, `the consistency proof from ${state.treeSize} to ${checkpoint.treeSize} could not be read: ${(error as Error).message}`],
        };
      }
      if (!verifyConsistency(state.treeSize, checkpoint.treeSize, proof, previousRoot, checkpoint.rootHash)) {
        return {
          code: 1,
          lines: [
            ...lines,
            `the log is not an extension of what this witness saw: the checkpoint of tree size ${checkpoint.treeSize} is not consistent with the one of ${state.treeSize} (entries up to ${state.treeSize} were changed, removed or reordered)`,
          ],
        };
      }
    }
  }
  lines.push(`checkpoint of tree size ${checkpoint.treeSize} verified${state ? ` (extends ${state.treeSize})` : ""}`);
  await writeState(options.statePath, {
    logKey: verifierOf(logKey),
    treeSize: checkpoint.treeSize,
    rootHash: checkpoint.rootHash.toString("base64"),
    checkpoint: checkpointText,
  });
  if (!options.keyPath) return { code: 0, lines };
  try {
    const witness = parseNoteSigner(await readFile(options.keyPath, "utf8"), options.keyPath, cosignatureV1Key);
    const seconds = BigInt(Math.floor((options.now?.() ?? new Date()).getTime() / 1_000));
    const cosigned = `${ownSignedNote(checkpointText, logKey)}${cosignatureLine(checkpoint.body, witness, seconds)}`;
    const response = await fetch(`${base}${auditCosignaturePath}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ checkpoint: cosigned }),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const answer = (await response.text()).trim();
    if (!response.ok) return { code: 3, lines: [...lines, `cosigned as ${witness.name}, but the log refused the cosignature (${response.status}): ${answer}`] };
    lines.push(`cosigned as ${witness.name}: ${answer}`);
    return { code: 0, lines };
  } catch (error) {
    return { code: 3, lines: [...lines, `verified, but not cosigned: ${(error as Error).message}`] };
  }
}

/** The checkpoint with the log's own signature only (the cosignatures of others are theirs to post). */
function ownSignedNote(noteText: string, logKey: NoteVerifier): string {
  const note = parseNote(noteText);
  const own = note.signatures.filter((line) => line.name === logKey.name && line.keyHash.equals(logKey.keyHash));
  return `${note.body}\n${own.map((line) => line.line).join("")}`;
}

function verifierOf(key: NoteVerifier): string {
  return `${key.name}+${key.keyHash.toString("hex")}+${Buffer.concat([Buffer.from([key.type]), key.publicKey]).toString("base64")}`;
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.trim().slice(0, 300)}`);
  return text;
}

async function readState(path: string): Promise<WitnessState | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const state = JSON.parse(text) as WitnessState;
  if (typeof state.logKey !== "string" || !Number.isSafeInteger(state.treeSize) || typeof state.rootHash !== "string" || typeof state.checkpoint !== "string") {
    throw new Error(`${path} is not an audit witness's state (logKey, treeSize, rootHash, checkpoint)`);
  }
  return state;
}

/** Written beside and renamed over: a run cut short leaves the previous state whole. */
async function writeState(path: string, state: WitnessState): Promise<void> {
  await writeFile(`${path}.next`, `${JSON.stringify(state, null, 2)}\n`);
  await rename(`${path}.next`, path);
}
