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
 * Run `body` with a fresh recorder and return what it performed. Synchronous bodies only; an
 * async body's later calls are recorded only while it runs synchronously.
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
