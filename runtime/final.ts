import { FluentUpdate, UNKNOWN_VALUE } from "./fluent";
import { StringOf, append, isInstance, show } from "./intrinsics";
import type { Occurrence } from "./occurrence";
import type { ContractSpec, Violation } from "./spec-data";

type FinalSpec = Extract<ContractSpec, { kind: "finalAll" | "finalAt" }>;

/** A key's final value and the write that set it (none: the key keeps `initial`). */
interface Final {
  readonly value: unknown;
  readonly last: FluentUpdate | undefined;
}

/** The writes of one fluent in a trace, in program order. */
function writesOf(spec: FinalSpec, trace: readonly Occurrence[]): FluentUpdate[] {
  const out: FluentUpdate[] = [];
  for (let t = 0; t < trace.length; t++) {
    const o = trace[t];
    if (isInstance(o, FluentUpdate) && (o as FluentUpdate).fluent === spec.fluent) append(out, o as FluentUpdate);
  }
  return out;
}

/** The value at `key` after every write, in order: the last write whose key is `=== key` wins (the prover's fold). */
function finalAt(spec: FinalSpec, writes: readonly FluentUpdate[], key: unknown): Final {
  let final: Final = { value: spec.fluent.initial, last: undefined };
  for (let i = 0; i < writes.length; i++) if (writes[i]!.key === key) final = { value: writes[i]!.value, last: writes[i] };
  return final;
}

function showValue(v: unknown): string {
  return v === UNKNOWN_VALUE ? "unknown (the call that last wrote it failed)" : show(v);
}

/**
 * A fluent's final state on a whole trace: `final.at(k).equals(v)` compares the final value at `k`
 * with `===`; `final.all(p)` applies `p` to every written key with its final value. A key whose
 * last write came from a failed call holds an unknown value, which keeps no guarantee.
 */
export function checkFinal(spec: FinalSpec, trace: readonly Occurrence[], contract: string | undefined): Violation[] {
  const name = StringOf(spec.fluent.name);
  const writes = writesOf(spec, trace);
  if (spec.kind === "finalAt") {
    const final = finalAt(spec, writes, spec.key);
    if (final.value !== UNKNOWN_VALUE && final.value === spec.value) return [];
    const how = final.last ? `its last write ${StringOf(final.last)}` : "it was never written (initial value)";
    return [{ contract, message: `${name} ends with ${showValue(final.value)} at ${show(spec.key)} (${how}), expected ${show(spec.value)}`, witnesses: final.last ? [final.last] : [] }];
  }
  const predicate = spec.predicate;
  const out: Violation[] = [];
  for (let i = 0; i < writes.length; i++) {
    const key = writes[i]!.key;
    let first = true;
    for (let j = 0; j < i && first; j++) if (writes[j]!.key === key) first = false;
    if (!first) continue;
    const final = finalAt(spec, writes, key);
    if (final.value !== UNKNOWN_VALUE && predicate({ key, value: final.value })) continue;
    append(out, { contract, message: `${name} ends with ${showValue(final.value)} at ${show(key)} (its last write ${StringOf(final.last)}), which breaks ${name}.final.all(…)`, witnesses: final.last ? [final.last] : [] });
  }
  return out;
}
