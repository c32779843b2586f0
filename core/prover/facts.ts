import type * as TS from "typescript";
import type { EventClassModel, FluentModel, ToolModel, ValueType } from "../model";
import type { Sym } from "./values";

/**
 * An event (or, for `effect(tool)` relations, a tool call) performed under `guard`; or a fluent
 * write (`update`: fields `key` and `value`, folded in `order` by the encoder).
 */
export interface Fact {
  readonly kind: "event" | "call" | "update";
  readonly event: EventClassModel | undefined;
  readonly fluent?: FluentModel;
  readonly tool: ToolModel;
  readonly fields: ReadonlyMap<string, Sym>;
  /** Bool term: the path condition under which the call happens (preconditions held). */
  readonly guard: string;
  readonly site: TS.CallExpression;
  /** Index constants of the quantified loops around the call, outermost first. */
  readonly loops: readonly string[];
  readonly order: number;
}

/** A `requires` precondition to prove at a call site. */
export interface Obligation {
  readonly tool: ToolModel;
  readonly message: string;
  readonly holds: string;
  readonly guard: string;
  readonly site: TS.CallExpression;
  readonly args: ReadonlyMap<string, Sym>;
  readonly loops: readonly string[];
  /** Where the call stands in program order (tool results of later calls are not shown with its counterexample). */
  readonly order: number;
}

/** A `throw` statement reached under `guard`. */
export interface ThrowFact {
  /** Why the run stops there, when it is not a `throw` statement (e.g. a value that may be undefined). */
  readonly message?: string;
  readonly guard: string;
  readonly site: TS.Node;
  readonly loops: readonly string[];
  readonly order: number;
}

/** Everything symbolic execution of one program produced. */
export class World {
  readonly declarations: string[] = [];
  /** Facts about the world that hold in every query (string ranges, lengths ≥ 0, ensures of pure values). */
  readonly assumptions: { readonly term: string; readonly loops: readonly string[] }[] = [];
  readonly inputs: { readonly name: string; readonly sym: Sym; readonly type: ValueType }[] = [];
  /** Each execution of a tool call, with the path condition under which it happens (one call site may execute several times). */
  readonly toolResults: { readonly label: string; readonly sym: Sym; readonly loops: readonly string[]; readonly order: number; readonly guard: string }[] = [];
  /**
   * Each execution of a tool call inside a `try`, whose implementation may throw after its events:
   * `failed` holds in the runs where it does (try.ts). Counterexamples name the calls that failed.
   */
  readonly failures: { readonly label: string; readonly failed: string; readonly loops: readonly string[]; readonly order: number; readonly guard: string }[] = [];
  readonly facts: Fact[] = [];
  readonly obligations: Obligation[] = [];
  readonly throws: ThrowFact[] = [];
  /** Every quantified loop index constant, with the length of the array it ranges over. */
  readonly loopRanges = new Map<string, { readonly len: string }>();
  private counter = 0;
  fresh(prefix: string): string {
    return `${prefix.replace(/[^\w]/g, "_")}!${this.counter++}`;
  }
  nextOrder(): number {
    return this.counter++;
  }
}
