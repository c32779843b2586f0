import { CONTRACT } from "./brand";
import { frozenCopy } from "./freeze";
import { parameterNames } from "./params";
import type { ContractSpec, Guarantee } from "./spec-data";

const ReflectApply = Reflect.apply;

/** Options of `contract(options, body)`. */
export interface ContractOptions {
  /**
   * Sentence template shown to the person approving a guarantee: only `{parameter}`
   * substitutions, every parameter must appear. Checked when the layer is read.
   */
  readonly description?: string;
  /** Export name, set by the transformer's metadata; defaults to the body function's name. */
  readonly name?: string;
}

/** What the runtime knows about a contract. */
export interface ContractInfo {
  readonly name: string;
  readonly description: string | undefined;
  readonly body: (...args: any[]) => ContractSpec;
}

/** A contract: call it with literal arguments to get a guarantee. */
export type Contract<P extends unknown[]> = ((...args: P) => Guarantee) & { readonly [CONTRACT]: ContractInfo };

/** Render `{param}` placeholders with JSON-quoted arguments (the full renderer lives in core/). */
function sentence(template: string | undefined, names: readonly string[], args: readonly unknown[]): string | undefined {
  if (template === undefined) return undefined;
  return template.replace(/\{([A-Za-z_$][\w$]*)\}/g, (whole, name: string) => {
    const i = names.indexOf(name);
    return i < 0 ? whole : JSON.stringify(args[i]);
  });
}

/**
 * Define a reusable contract. The body is one expression or a block of `const` declarations and
 * one `return`; it may call other contracts.
 */
export function contract<P extends unknown[]>(body: (...args: P) => ContractSpec): Contract<P>;
export function contract<P extends unknown[]>(options: ContractOptions, body: (...args: P) => ContractSpec): Contract<P>;
export function contract<P extends unknown[]>(
  first: ContractOptions | ((...args: P) => ContractSpec),
  second?: (...args: P) => ContractSpec,
): Contract<P> {
  const options: ContractOptions = typeof first === "function" ? {} : first;
  const body = typeof first === "function" ? first : second;
  if (typeof body !== "function") throw new TypeError("clauz3: contract(options, body) expects a body function");
  const name = options.name ?? (body.name || "contract");
  const names = paramNamesOf(body);
  const info: ContractInfo = Object.freeze({ name, description: options.description, body });
  const call = (...args: P): Guarantee => {
    let spec: ContractSpec | undefined;
    // Frozen at every depth (the arrays inside arguments too), and the body sees the same frozen
    // values: agent code cannot change a guarantee after it was proved.
    const frozenArgs = frozenCopy(args);
    return Object.freeze({
      kind: "guarantee" as const,
      contract: name,
      args: frozenArgs,
      description: sentence(options.description, names, frozenArgs),
      get spec(): ContractSpec {
        return (spec ??= ReflectApply(body, undefined, frozenArgs));
      },
    });
  };
  Object.defineProperty(call, CONTRACT, { value: info });
  return call as Contract<P>;
}

function paramNamesOf(fn: Function): string[] {
  try {
    return parameterNames(fn);
  } catch {
    return []; // the layer rules report such a contract; the sentence then keeps its placeholders
  }
}

/**
 * A program that promises nothing: an explicit, reviewable empty guarantee list entry. With a
 * library (the namespace import of one of its trusted modules, or one of its tools or contracts),
 * the program says it promises nothing about that library: its silent coverage gap is addressed
 * (docs/coverage.md). The library is named by declaration, never by a string.
 */
export function noGuarantees(library?: object): ContractSpec {
  void library; // read statically by clauz3; at run time the entry promises nothing
  return Object.freeze({ kind: "none" as const });
}

/** All of the given specifications hold. */
export function allOf(...specs: ContractSpec[]): ContractSpec {
  return Object.freeze({ kind: "allOf" as const, specs: Object.freeze([...specs]) });
}
