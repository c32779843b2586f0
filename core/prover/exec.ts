/** The symbolic executor; its parts live in exec/, one file per construct (see exec/executor.ts). */
export { BOUNDED_UNROLL_CAP, EXEC_STEP_LIMIT, TERM_CHAR_LIMIT, UNROLL_CAP } from "./exec/caps";
export { Executor } from "./exec/executor";
export type { State } from "./exec/state";
