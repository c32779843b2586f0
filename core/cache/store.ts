/**
 * The proof cache on disk: one JSON file per verdict, named by its key (key.ts), under
 * `node_modules/.cache/clauz3/proofs/` of the project or a `--cache-location`.
 *
 * - Only final verdicts are stored: never one the wall clock cut short (`provisional`), never one
 *   with an unknown (93105), an internal error or a stack overflow — those depend on the machine.
 * - An entry is believed only when it is well formed, of this format, under its own key, for the
 *   same file, and its content digest matches: a corrupt, truncated or foreign file is ignored
 *   (and overwritten by the next proof), never trusted.
 * - Writes are atomic (a temporary file renamed into place), so a killed process or two processes
 *   proving at once leave either no entry or a whole one.
 * - Failing to read or write the cache never fails a proof: the cache only ever saves work.
 *
 * The cache is as trustworthy as the working tree it sits in (an agent can write both), so
 * `clauz3 run` and the approval service never read it; `check`, `prove`, `tspc` and the editor do.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeAtomically } from "./write";
import type * as TS from "typescript";
import type { ProgramVerdict, ProofResult } from "../prover/api";
import { STACK_OVERFLOW_REFUSAL } from "../prover/limits";
import { PROOF_CODES, RULES } from "../rules";
import { CACHE_FORMAT } from "./key";

interface Entry {
  readonly format: string;
  readonly key: string;
  /** SHA-256 of `JSON.stringify(verdict)`. */
  readonly digest: string;
  readonly verdict: ProgramVerdict;
}

/** Whether a verdict is the same on every machine, and may be stored. */
export function isCacheable(verdict: ProgramVerdict): boolean {
  if (verdict.provisional !== undefined) return false;
  return verdict.results.every((r) => r.code !== PROOF_CODES.unknown && r.code !== RULES.internalError.code && !r.message.startsWith(STACK_OVERFLOW_REFUSAL));
}

const VERDICTS = new Set(["proved", "violated", "refused"]);
const KINDS = new Set(["guarantee", "precondition", "throw"]);

function isSpan(value: unknown): boolean {
  const s = value as Record<string, unknown> | null;
  return typeof s === "object" && s !== null && typeof s.fileName === "string" && ["start", "length", "line", "column"].every((k) => Number.isInteger(s[k]));
}

function isResult(value: unknown): value is ProofResult {
  const r = value as Record<string, unknown> | null;
  return typeof r === "object" && r !== null && KINDS.has(r.kind as string) && VERDICTS.has(r.verdict as string) && typeof r.message === "string" && Number.isInteger(r.code) && isSpan(r.location) && (r.guarantee === undefined || isSpan(r.guarantee));
}

/** The verdict of a well-formed entry for `key` and `fileName`, or undefined. */
function verdictOf(json: unknown, key: string, fileName: string): ProgramVerdict | undefined {
  const e = json as Partial<Entry> | null;
  if (typeof e !== "object" || e === null || e.format !== CACHE_FORMAT || e.key !== key || typeof e.digest !== "string") return undefined;
  const v = e.verdict as Partial<ProgramVerdict> | undefined;
  if (typeof v !== "object" || v === null || v.file !== fileName || !VERDICTS.has(v.verdict as string) || !Array.isArray(v.results) || !v.results.every(isResult)) return undefined;
  if (digestOf(v as ProgramVerdict) !== e.digest) return undefined;
  const verdict = v as ProgramVerdict;
  // A verdict is proved only when every result is: an entry that says otherwise is not one we wrote.
  const proved = verdict.results.every((r) => r.verdict === "proved");
  if ((verdict.verdict === "proved") !== proved || !isCacheable(verdict)) return undefined;
  return verdict;
}

function digestOf(verdict: ProgramVerdict): string {
  return crypto.createHash("sha256").update(JSON.stringify(verdict)).digest("hex");
}

/** Counts of one run, for `--verbose` output and the bench. */
export interface CacheStats {
  hits: number;
  misses: number;
  stored: number;
}

export class ProofCache {
  readonly stats: CacheStats = { hits: 0, misses: 0, stored: 0 };

  /** `dir` holds the entries (created on the first write). */
  constructor(readonly dir: string) {}

  /** The default location for a project directory: `node_modules/.cache/clauz3/proofs`. */
  static forProject(projectDir: string): ProofCache {
    return new ProofCache(path.join(projectDir, "node_modules", ".cache", "clauz3", "proofs"));
  }

  /** The default location for a program: beside its tsconfig.json, else in its current directory. */
  static forProgram(program: TS.Program): ProofCache {
    const config = program.getCompilerOptions().configFilePath;
    return ProofCache.forProject(typeof config === "string" ? path.dirname(config) : program.getCurrentDirectory());
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** Whether an entry for `key` exists (not whether it is valid: `get` decides that). */
  has(key: string): boolean {
    return fs.existsSync(this.fileOf(key));
  }

  get(key: string, fileName: string): ProgramVerdict | undefined {
    let verdict: ProgramVerdict | undefined;
    try {
      verdict = verdictOf(JSON.parse(fs.readFileSync(this.fileOf(key), "utf8")), key, fileName);
    } catch {
      verdict = undefined;
    }
    if (verdict) this.stats.hits++;
    else this.stats.misses++;
    return verdict;
  }

  put(key: string, verdict: ProgramVerdict): void {
    if (!isCacheable(verdict)) return;
    const entry: Entry = { format: CACHE_FORMAT, key, digest: digestOf(verdict), verdict };
    if (writeAtomically(this.fileOf(key), JSON.stringify(entry))) this.stats.stored++;
  }
}
