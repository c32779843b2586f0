/**
 * Turns on the solver (core/prover/turns.ts) in a real Z3 session: a query whose turn is taken
 * back mid-check is interrupted and asked again at the next turn, with the answer it has
 * uninterrupted; a query of an abandoned proof throws `ProofAbandoned`; the session answers the
 * next query either way.
 */
import { ProofAbandoned, type SolverShare, type SolverTurn } from "../../core/prover/turns";
import { Z3Session } from "../../core/prover/z3";

const cubes = ["(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)", ["(= (+ (* x x x) (* y y y) (* z z z)) 33)"]] as const;
const easy = async (session: Z3Session) => (await session.query("(declare-const x Int)", ["(= (* x x) 49)", "(> x 0)"], { rlimit: 10_000_000, backstopMs: 600_000 }, async () => undefined)).status;

/** A share whose first turn is taken back once Z3 is checking; `abandon`: the proof is abandoned then. */
function share(abandon: boolean): SolverShare & { turns: number } {
  const s = {
    turns: 0,
    turn: async (): Promise<SolverTurn> => {
      const n = ++s.turns;
      let release!: () => void;
      const turn = {
        stopped: false,
        stop: new Promise<void>((r) => (release = r)),
        end: () => {
          if (abandon && turn.stopped) throw new ProofAbandoned("stale");
        },
      };
      if (n === 1) {
        Z3Session.whileChecking = () => {
          Z3Session.whileChecking = undefined;
          turn.stopped = true;
          release();
        };
      }
      return turn;
    },
  };
  return s;
}

afterEach(() => {
  Z3Session.whileChecking = undefined;
});

it("interrupts a query whose turn is taken back and asks it again from the start", async () => {
  const session = await Z3Session.get();
  const s = share(false);
  const answer = await session.query(cubes[0], [...cubes[1]], { rlimit: 200_000, backstopMs: 600_000, share: s }, async () => undefined);
  expect(s.turns).toBe(2);
  // The answer of the uninterrupted query: the resource limit, not the wall clock.
  expect(answer).toMatchObject({ status: "unknown", reason: expect.stringMatching(/resource limit of 200000 units/) });
  expect(answer.status === "unknown" && answer.wallClock).toBeFalsy();
  expect(await easy(session)).toBe("sat");
});

it("ends a query of an abandoned proof with ProofAbandoned, and the session answers the next query", async () => {
  const session = await Z3Session.get();
  const s = share(true);
  await expect(session.query(cubes[0], [...cubes[1]], { rlimit: 4_000_000_000, backstopMs: 600_000, share: s }, async () => undefined)).rejects.toBeInstanceOf(ProofAbandoned);
  expect(s.turns).toBe(1);
  expect(await easy(session)).toBe("sat");
});
