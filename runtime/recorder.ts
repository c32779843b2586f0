import type { Occurrence } from "./occurrence";

/** Receives every occurrence a trusted call performs, before its implementation runs. */
export interface Recorder {
  /** Called with the call's tool record and events; may throw to stop the call. */
  before?(tool: string, occurrences: readonly Occurrence[], trace: readonly Occurrence[]): void;
  readonly trace: Occurrence[];
}

const stack: Recorder[] = [];

export function activeRecorder(): Recorder | undefined {
  return stack[stack.length - 1];
}

/**
 * Every active recorder, outermost first. A trusted call is reported to all of them, so a nested
 * `record(...)` cannot hide a call from an enclosing one (nor from an enclosing `enforce`).
 */
export function activeRecorders(): readonly Recorder[] {
  return [...stack];
}

/**
 * Run `body` with a fresh recorder and return what it performed. Synchronous bodies only; an
 * async body's later calls are recorded only while it runs synchronously. Enclosing recorders
 * still see (and may refuse) every call the body makes.
 */
export function record<R>(body: () => R, recorder: Recorder = { trace: [] }): { result: R; trace: Occurrence[] } {
  stack.push(recorder);
  try {
    const result = body();
    return { result, trace: recorder.trace };
  } finally {
    stack.pop();
  }
}
