import type * as TS from "typescript";
import type { ModuleHost } from "../layer/loads";
import type { LibraryCoverage } from "../coverage/types";
import type { Span } from "../model";
import type { SolverShare } from "./turns";

/** The verdict of one guarantee, precondition or reachable throw. */
export type Verdict = "proved" | "violated" | "refused";

/** A value shown in a counterexample, as JSON (numbers that JSON cannot hold are strings: "NaN", "-0", "Infinity"). */
export type ShownValue = string | number | boolean | null | ShownValue[] | { [key: string]: ShownValue };

/** A concrete run that breaks a guarantee or precondition. */
export interface Counterexample {
  /** Values of `main`'s parameters, by name. */
  readonly inputs: Readonly<Record<string, ShownValue>>;
  /** Values returned by tool calls that the run depends on, keyed by `tool@line:column`. */
  readonly toolResults: Readonly<Record<string, ShownValue>>;
  /** The call whose event breaks the guarantee. */
  readonly callSite: Span | undefined;
  /** The event (or tool call, for `effect(tool)` relations) with its field values. */
  readonly event: { readonly name: string; readonly fields: Readonly<Record<string, ShownValue>> } | undefined;
  /** The failing call's arguments by parameter name, for preconditions. */
  readonly arguments?: Readonly<Record<string, ShownValue>>;
  /**
   * Tool calls inside a `try` whose implementation throws in this run (after their events), keyed
   * like `toolResults` (`tool@line:column`, then `#2`, … for later executions of one call).
   */
  readonly failedCalls?: readonly string[];
  /** A second event, for `distinct`/`sharesValue` violations. */
  readonly otherEvent?: { readonly name: string; readonly fields: Readonly<Record<string, ShownValue>>; readonly callSite: Span | undefined };
}

/** One result of proving a program. */
export interface ProofResult {
  readonly kind: "guarantee" | "precondition" | "throw";
  /** Library-qualified call with named arguments, for guarantees. */
  readonly contract?: string;
  /** The contract's export name, for guarantees. */
  readonly contractName?: string;
  /** The library-qualified tool, for preconditions. */
  readonly tool?: string;
  /** The `requires` message (or its predicate's text) the call may fail, for preconditions. */
  readonly requires?: string;
  /** The generated sentence (or first JSDoc paragraph) for guarantees. */
  readonly sentence?: string;
  readonly verdict: Verdict;
  /** One readable paragraph: what was proved, what breaks and how, or why it was refused and what to write instead. */
  readonly message: string;
  /** Where the result belongs: the breaking call, the refused node, or the guarantee entry when proved. */
  readonly location: Span;
  /** The guarantee entry in `guarantees`, for guarantee results. */
  readonly guarantee?: Span;
  readonly counterexample?: Counterexample;
  /** Stable diagnostic code (see PROOF_CODES). */
  readonly code: number;
  /** For a guarantee the program does not state: the library whose coverage policy requires it (docs/coverage.md). */
  readonly requiredBy?: string;
}

/** The verdict of one agent program: proved only when every result is proved. */
export interface ProgramVerdict {
  readonly file: string;
  readonly verdict: Verdict;
  readonly results: readonly ProofResult[];
  /**
   * Set (to the reason) when an answer was cut short by the wall clock — a query's backstop or the
   * program's time budget — rather than decided within the solver's resource limit. The verdict
   * may then differ on a less busy machine: it is not final, and callers never cache it.
   */
  readonly provisional?: string;
  /**
   * Coverage (docs/coverage.md): each used library that declares a coverage policy, worst status
   * first. Absent when `main` could not be executed symbolically (the program is refused then).
   */
  readonly coverage?: readonly LibraryCoverage[];
}

/** Options of a proof. */
export interface ProveOptions {
  readonly trustedRoots?: readonly string[];
  /**
   * Z3 resource units (`rlimit`) one query may use over all its attempts: the deterministic bound
   * of the solver's work. Default `DEFAULT_RLIMIT` (limits.ts, docs/determinism.md).
   */
  readonly rlimit?: number;
  /**
   * Wall-clock backstop of one query in milliseconds, for a solver that stops counting its work or
   * a stalled machine; an answer it cuts short is not final. Default `DEFAULT_BACKSTOP_MS`.
   */
  readonly timeoutMs?: number;
  /**
   * Wall-clock budget of one program (all its queries) in milliseconds; the queries left when it
   * runs out are unknown (refused). Default `DEFAULT_PROGRAM_TIMEOUT_MS`.
   */
  readonly programTimeoutMs?: number;
  /**
   * The proof's turns on a solver shared with other proofs (the editor's scheduler, turns.ts):
   * each query waits for a turn, and an abandoned proof throws `ProofAbandoned` instead of giving
   * a verdict. Not part of the proof's inputs (it never changes a verdict, so no cache key reads it).
   */
  readonly share?: SolverShare;
}

/** Input of a proof: the caller's TypeScript, a type-checked program, and the agent file. */
export interface ProveInput {
  readonly ts: typeof TS;
  readonly program: TS.Program;
  readonly file: TS.SourceFile;
  readonly options?: ProveOptions;
  /** Where Node would look for the modules the program loads (default `ts.sys`; an in-memory system in tests). */
  readonly host?: ModuleHost;
}
