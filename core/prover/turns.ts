/**
 * Turns on the process's solver, for a scheduler that runs several proofs in one process (the
 * editor: language-service/scheduler.ts). A proof that carries a {@link SolverShare} asks for a
 * turn before each query — the yield point between its query slices — and gives the solver back
 * when the query ends. The scheduler decides whose turn comes next, and may take the solver back
 * in the middle of a query: the session then interrupts Z3 (`solver_interrupt`), resets the
 * query's solvers and deletes its context, so the session is ready for the next query at once.
 *
 * A query interrupted this way has no answer: when the proof goes on (it was preempted) the query
 * is asked again from the start at its next turn, with the same text, resource limit and seeds, so
 * its answer is the one it would have had uninterrupted; when the proof was abandoned (its text is
 * stale, or it spent its budget) the query throws {@link ProofAbandoned} and so does the proof.
 */

/**
 * Why a proof was abandoned: its content is no longer shown, it spent its editor budget of solver
 * time, or running `main` symbolically would take more steps than it may run at once on the host's
 * thread ({@link SolverShare.hostSteps}).
 */
export type AbandonReason = "stale" | "budget" | "steps";

/** Thrown out of every query of an abandoned proof, and out of `proveProgram`: never a verdict. */
export class ProofAbandoned extends Error {
  constructor(readonly reason: AbandonReason) {
    super(reason === "stale" ? "the proof was abandoned: its program changed" : reason === "budget" ? "the proof was abandoned: it spent its editor budget" : "the proof was abandoned: its symbolic execution takes more steps than the editor runs at once");
    this.name = "ProofAbandoned";
  }
}

/** One proof's claim on the solver. */
export interface SolverShare {
  /** Resolves when the proof may run its next query; rejects with {@link ProofAbandoned} once it is abandoned. */
  turn(): Promise<SolverTurn>;
  /**
   * The yield point between the steps of a proof that are not queries (reading its guarantees,
   * the symbolic execution, …): they run on the host's thread, which an editor needs for its own
   * requests and for other proofs' steps. Resolves after the host's waiting work had its chance;
   * rejects with {@link ProofAbandoned} once the proof is abandoned.
   */
  pause?(): Promise<void>;
  /**
   * The most steps one symbolic execution of `main` may take (exec/caps.ts counts them as
   * EXEC_STEP_LIMIT does): it runs on the host's thread in one piece, about 3–17 µs a step, and
   * nothing else runs there meanwhile. More, and the proof is abandoned (`"steps"`) where it got to.
   */
  readonly hostSteps?: number;
}

/** One query's hold on the solver. */
export interface SolverTurn {
  /** Settles when the scheduler takes the solver back before the query ends (the running check is interrupted). */
  readonly stop: Promise<void>;
  /** Whether {@link stop} has settled. */
  readonly stopped: boolean;
  /** The query is over and the solver free. Throws {@link ProofAbandoned} when the proof was abandoned meanwhile. */
  end(): void;
}
