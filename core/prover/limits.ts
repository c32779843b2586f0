/**
 * The prover's limits: what it refuses before doing work that would not end in bounded time,
 * memory or stack, and the budgets that make an answer a function of the program rather than of
 * the machine's load. Every number is documented (with how it was chosen) in docs/robustness.md
 * and docs/determinism.md.
 *
 * - Depth: the symbolic executor, the encoder and the S-expression printer recurse over the syntax
 *   tree and the terms; a program nested deeper than {@link MAX_NESTING} is refused on the node
 *   before it is executed, and a query nested deeper than {@link QUERY_LIMITS.maxDepth} before
 *   Z3 or the reformulations read it.
 * - Size: a string literal longer than {@link QUERY_LIMITS.maxLiteral} code units (Z3's string
 *   solver recurses over literals: 12 000 characters overflowed its stack) and a query text longer
 *   than {@link QUERY_LIMITS.maxChars} are refused before Z3 sees them.
 * - Work: each query is bounded by Z3's resource counter (`rlimit`), which counts steps and so
 *   gives the same answer on an idle and on a busy machine; the wall clock is only a backstop
 *   ({@link DEFAULT_BACKSTOP_MS} per query, {@link DEFAULT_PROGRAM_TIMEOUT_MS} per program), and an
 *   answer it cut short is never final (see {@link ProgramBudget}).
 */
import type * as TS from "typescript";
import { Refusal } from "../refusal";
import { PROOF_CODES, RULES } from "../rules";
import type { Span } from "../model";
import type { ProgramVerdict } from "./api";
import type { SolverShare } from "./turns";

/** Syntax-tree depth (nodes from the source file down) beyond which a program is refused. */
export const MAX_NESTING = 200;

/** Limits of one query's text, checked before any parser or solver reads it. */
export interface QueryTextLimits {
  readonly maxLiteral: number;
  readonly maxChars: number;
  readonly maxDepth: number;
}

export const QUERY_LIMITS: QueryTextLimits = {
  /** UTF-16 code units of one string literal (in the program, in a guarantee argument, in a query). */
  maxLiteral: 4096,
  /** Characters of one query's SMT-LIB text. */
  maxChars: 8_000_000,
  /** Nesting of parentheses in one query's text. */
  maxDepth: 2000,
};

/**
 * Z3 resource units one query may use, over all its attempts: the hardest query of the fixture
 * corpus used 15.8 million, this is three times that (docs/determinism.md).
 */
export const DEFAULT_RLIMIT = 50_000_000;
/**
 * Wall-clock backstop of one query, in ms: for a solver that works without counting (some string
 * and floating-point searches do a few thousand units a second) or a stalled machine. Three times
 * the old per-query time limit; the slowest corpus query took 57 s on a machine busy with six
 * engineers' test runs.
 */
export const DEFAULT_BACKSTOP_MS = 120_000;
/**
 * Wall-clock budget of one program (every query of it), in ms: a program whose queries would run
 * longer ends in bounded time, refused (provisionally), with how to raise it.
 */
export const DEFAULT_PROGRAM_TIMEOUT_MS = 90_000;
/** Z3's memory cap for the process, in MB (`memory_max_size`): a query that needs more is unknown. */
export const Z3_MEMORY_MB = 1024;

/** How a program may spend the solver: the options a caller gives (defaults above). */
export interface BudgetOptions {
  readonly rlimit?: number;
  readonly timeoutMs?: number;
  readonly programTimeoutMs?: number;
  /** The proof's turns on a solver shared with other proofs (the editor's scheduler; turns.ts). */
  readonly share?: SolverShare;
}

/** What one query may use: its resource budget and its wall-clock backstop. */
export interface QueryLimits {
  /** Z3 resource units for the whole query (all attempts). The deterministic bound. */
  readonly rlimit: number;
  /** Wall-clock ms after which the query is abandoned (a backstop; its answer is not final). */
  readonly backstopMs: number;
  /** Why the backstop is what it is, said in the answer when it is reached. */
  readonly backstopReason?: string;
  /** The proof's turns on a shared solver: the query waits for a turn and may be interrupted and asked again. */
  readonly share?: SolverShare;
}

/**
 * The solver budget of one program. Each query gets the resource limit; its wall-clock backstop is
 * the smaller of the per-query backstop and what is left of the program's time. A query that
 * starts after the program's time ran out is not run. Whether any answer came from the wall clock
 * is remembered: such a verdict is provisional (a less busy machine could decide differently), so
 * callers must not cache it.
 */
export class ProgramBudget {
  readonly rlimit: number;
  readonly backstopMs: number;
  readonly programTimeoutMs: number;
  private readonly share: SolverShare | undefined;
  private readonly deadline: number;
  /** The first wall-clock reason an answer of this program was cut short for, if any. */
  wallClock: string | undefined;

  constructor(options: BudgetOptions = {}, private readonly now: () => number = () => performance.now()) {
    this.rlimit = options.rlimit ?? DEFAULT_RLIMIT;
    this.backstopMs = options.timeoutMs ?? DEFAULT_BACKSTOP_MS;
    this.programTimeoutMs = options.programTimeoutMs ?? DEFAULT_PROGRAM_TIMEOUT_MS;
    this.share = options.share;
    this.deadline = this.now() + this.programTimeoutMs;
  }

  /** The sentence said when the program's time ran out. */
  get programReason(): string {
    return `the program's time budget of ${this.programTimeoutMs} ms ran out (a wall-clock limit, not the solver's resource limit: the answer may differ on a less busy machine); raise it with --program-timeout <ms> (option \`programTimeoutMs\`)`;
  }

  /** Time the queries asked until `release` leave unspent (kept for the search among short runs). */
  private kept = 0;

  /** Keep `ms` of the program's time back from the queries asked until `release`. */
  keep(ms: number): void {
    this.kept = ms;
  }

  release(): void {
    this.kept = 0;
  }

  /** The resource limit of the queries asked until `uncap`, when lower than the program's. */
  private capped: number | undefined;

  /** Ask the next queries with at most `units` each (a first, short pass: prove.ts `EARLY_UNITS`). */
  cap(units: number): void {
    this.capped = units;
  }

  uncap(): void {
    this.capped = undefined;
  }

  /** The limits of the next query, or undefined when the program's time is spent. */
  next(): QueryLimits | undefined {
    const left = Math.floor(this.deadline - this.kept - this.now());
    if (left < 1) {
      this.wallClock ??= this.programReason;
      return undefined;
    }
    const share = this.share ? { share: this.share } : {};
    const rlimit = Math.min(this.rlimit, this.capped ?? Infinity);
    if (left < this.backstopMs) return { rlimit, backstopMs: left, backstopReason: this.programReason, ...share };
    return {
      ...share,
      rlimit,
      backstopMs: this.backstopMs,
      backstopReason: `the query reached the wall-clock backstop of ${this.backstopMs} ms before its resource limit of ${this.rlimit} units (the machine may be overloaded; the answer is not final); raise it with --timeout <ms>`,
    };
  }

  /** Remember an answer that the wall clock produced. */
  note(answer: { readonly status: string; readonly wallClock?: boolean; readonly reason?: string }): void {
    if (answer.status === "unknown" && answer.wallClock) this.wallClock ??= answer.reason;
  }
}

/** A stack overflow (JavaScript's RangeError for it). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** How a refusal for a stack overflow during the proof begins (it depends on the machine's stack: never cached). */
export const STACK_OVERFLOW_REFUSAL = "refused: proving this program ran out of stack";

/**
 * The verdict of a program whose proof failed: refused, with one result on the program that says
 * why — a refusal for a limit (a node nested too deep, a stack overflow), an internal error for
 * anything else. Never thrown on: the other programs of a batch
 * keep their verdicts.
 */
export function failedProof(file: TS.SourceFile, error: unknown): ProgramVerdict {
  const at = (node: TS.Node): Span => {
    // Before the binder ran, nodes have no parents to find their file by: it is `file`.
    const source = (node.getSourceFile() as TS.SourceFile | undefined) ?? file;
    const start = node.getStart(source);
    const { line, character } = source.getLineAndCharacterOfPosition(start);
    return { fileName: source.fileName, start, length: node.getEnd() - start, line: line + 1, column: character + 1 };
  };
  const anchor = file.statements[0] ?? file;
  if (error instanceof Refusal) {
    return { file: file.fileName, verdict: "refused", results: [{ kind: "guarantee", verdict: "refused", code: PROOF_CODES.refused, location: at(error.node), message: `refused: ${error.reason} ${error.instead}` }] };
  }
  if (isStackOverflow(error)) {
    const message = `${STACK_OVERFLOW_REFUSAL} (${(error as Error).message}): some expression, statement or term of it is nested too deeply, or a chain too long. Split it: name intermediate values with \`const\`, move nested parts into helper functions.`;
    return { file: file.fileName, verdict: "refused", results: [{ kind: "guarantee", verdict: "refused", code: PROOF_CODES.refused, location: at(anchor), message }] };
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { file: file.fileName, verdict: "refused", results: [{ kind: "guarantee", verdict: "refused", code: RULES.internalError.code, location: at(anchor), message: `refused: clauz3 failed while proving ${file.fileName} (${detail}). This is a bug in clauz3; the program is not proved.` }] };
}

/**
 * Refuse, before execution, what the prover cannot process in bounded stack and time: a syntax
 * tree deeper than {@link MAX_NESTING} (parentheses, nested ternaries, long `+` chains, nested
 * blocks) and string literals longer than {@link QUERY_LIMITS.maxLiteral}. The walk uses its own
 * stack, so it cannot overflow on the trees it refuses. Throws a {@link Refusal} on the first node.
 */
export function checkProgramLimits(ts: typeof TS, files: readonly TS.SourceFile[]): void {
  for (const file of files) {
    const stack: [TS.Node, number][] = [[file, 0]];
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!;
      if (depth > MAX_NESTING) {
        throw new Refusal(node, `This code is nested more than ${MAX_NESTING} levels deep (syntax tree depth; each parenthesis, operator of a chain, ternary, block and statement counts one), beyond what the prover processes.`, "Split it: name intermediate values with `const`, move nested parts into helper functions, or use a loop over a literal array.");
      }
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) && node.text.length > QUERY_LIMITS.maxLiteral) {
        throw new Refusal(node, `This string literal has ${node.text.length} characters; the prover handles literals of at most ${QUERY_LIMITS.maxLiteral}.`, "Read long text at run time (from a file or a tool) instead of writing it into the program.");
      }
      ts.forEachChild(node, (child) => void stack.push([child, depth + 1]));
    }
  }
}

/** The shape of a query's text: its length, its deepest parenthesis and its longest string literal. */
export interface QueryShape {
  readonly chars: number;
  readonly depth: number;
  readonly longestLiteral: number;
}

/** Measure a query's text in one pass (no recursion, no allocation beyond the counters). */
export function queryShape(text: string): QueryShape {
  let depth = 0;
  let deepest = 0;
  let longest = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      // A string literal: "" inside is an escaped quote; \u{…} and \uXXXX are one character each.
      let units = 0;
      for (i++; i < text.length; i++, units++) {
        const c = text.charCodeAt(i);
        if (c === 0x22 && text.charCodeAt(++i) !== 0x22) break;
        if (c === 0x5c /* \ */ && text[i + 1] === "u") {
          const end = text[i + 2] === "{" ? text.indexOf("}", i) : i + 5;
          if (end > i && end < text.length && /^u(?:\{[0-9a-fA-F]{1,5}\}|[0-9a-fA-F]{4})$/.test(text.slice(i + 1, end + 1))) i = end;
        }
      }
      i--;
      longest = Math.max(longest, units);
    } else if (ch === 0x7c /* | */) {
      const end = text.indexOf("|", i + 1);
      i = end < 0 ? text.length : end;
    } else if (ch === 0x3b /* ; */) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (ch === 0x28 /* ( */) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x29 /* ) */) depth--;
  }
  return { chars: text.length, depth: deepest, longestLiteral: longest };
}

/** Why a query's text is beyond the limits, or undefined when it is within them. */
export function queryProblem(text: string, limits: QueryTextLimits = QUERY_LIMITS): string | undefined {
  if (text.length > limits.maxChars) return `the query has ${text.length} characters, more than the limit of ${limits.maxChars}; split the guarantee or the program`;
  const shape = queryShape(text);
  if (shape.depth > limits.maxDepth) return `the query nests ${shape.depth} levels deep, more than the limit of ${limits.maxDepth}; name intermediate values or simplify the program`;
  if (shape.longestLiteral > limits.maxLiteral) return `the query holds a string literal of ${shape.longestLiteral} characters, more than the limit of ${limits.maxLiteral}; shorten the strings the program builds`;
  return undefined;
}
