/**
 * The batch scheduler: runs trusted calls whose footprints commute at the same time and
 * conflicting ones in submission order (docs/footprints.md).
 *
 * Calls are *started* in submission order (a call starts once every earlier call it conflicts
 * with has settled, and after every earlier call has started), so the events each call records
 * when it starts reach every recorder in submission order: traces and the runtime backstop see
 * the order of the batch, whatever the completion order. Results are returned in submission order.
 */
import { commutes, resolveFootprint, type Footprint } from "./footprint";
import { toolInfo } from "./tool";

/** One call of a batch: a trusted tool and its arguments as the tool takes them. */
export interface BatchCall {
  readonly tool: (...args: any[]) => unknown;
  readonly args: readonly unknown[];
}

/** The outcome of one call, as `Promise.allSettled` reports it. */
export type BatchResult = { readonly status: "fulfilled"; readonly value: unknown } | { readonly status: "rejected"; readonly reason: unknown };

export interface BatchOptions {
  /** Run every call after the previous one settled (the reference the concurrent schedule must equal). */
  readonly sequential?: boolean;
  /** Directory relative paths are resolved against (default: the process's working directory). */
  readonly cwd?: string;
}

/** The footprint of one call: its tool's spec resolved against its arguments by name. */
export function footprintOfCall(call: BatchCall, cwd?: string): Footprint {
  const info = toolInfo(call.tool);
  if (!info) throw new TypeError("clauz3: a batch call's tool must be a trusted tool");
  const named: Record<string, unknown> = {};
  const objectParameter = info.metadata?.objectParameter;
  if (objectParameter !== undefined) {
    const object = call.args[0];
    if (typeof object === "object" && object !== null) {
      for (const name of info.parameters) if (Object.prototype.hasOwnProperty.call(object, name)) named[name] = (object as Record<string, unknown>)[name];
    }
  } else {
    info.parameters.forEach((name, i) => {
      if (i < call.args.length) named[name] = call.args[i];
    });
  }
  return resolveFootprint(info.footprint, named, cwd);
}

/**
 * Run a batch of trusted calls: commuting calls concurrently, conflicting calls in submission
 * order. Every call runs (a failed call does not cancel the others, as with `Promise.allSettled`);
 * the results come back in submission order.
 */
export async function runBatch(calls: readonly BatchCall[], options: BatchOptions = {}): Promise<BatchResult[]> {
  // Resolve every footprint before anything runs: a call cannot change what an earlier one touches.
  const footprints = calls.map((c) => footprintOfCall(c, options.cwd));
  const results: BatchResult[] = new Array(calls.length);
  const settled: Promise<void>[] = [];
  const start = (i: number): Promise<void> => {
    const call = calls[i]!;
    try {
      return Promise.resolve(call.tool(...call.args)).then(
        (value) => void (results[i] = { status: "fulfilled", value }),
        (reason: unknown) => void (results[i] = { status: "rejected", reason }),
      );
    } catch (reason) {
      results[i] = { status: "rejected", reason };
      return Promise.resolve();
    }
  };
  for (let i = 0; i < calls.length; i++) {
    if (options.sequential) {
      await start(i);
      continue;
    }
    const before: Promise<void>[] = [];
    for (let j = 0; j < i; j++) if (!commutes(footprints[j]!, footprints[i]!)) before.push(settled[j]!);
    if (before.length > 0) await Promise.all(before);
    settled.push(start(i));
  }
  await Promise.all(settled);
  return results;
}
