/**
 * The solver session under failure: Z3's memory cap, a fresh wasm instance after a crash or after
 * the cap was reached, and the wall-clock backstop and program budget, whose answers are never
 * final (the editor does not keep them).
 */
import type { ProgramVerdict } from "../../core/prover/api";
import { ProgramBudget } from "../../core/prover/limits";
import { SolverError, Z3Session } from "../../core/prover/z3";
import { ProofScheduler, type ProofJob } from "../../language-service/scheduler";

const cubes = ["(declare-const x Int)\n(declare-const y Int)\n(declare-const z Int)", ["(= (+ (* x x x) (* y y y) (* z z z)) 33)"]] as const;
// The faults are injected into checks: every query here goes to Z3 (a guessed model answers a
// satisfiable query without a check, guess/search.ts).
beforeAll(() => {
  Z3Session.guesses = false;
});
afterAll(() => {
  Z3Session.guesses = true;
});

const easy = async (session: Z3Session) => (await session.query("(declare-const x Int)", ["(= (* x x) 49)", "(> x 0)"], { rlimit: 10_000_000, backstopMs: 600_000 }, async (get) => String((await get([{ term: "x", sort: "Int" }]))[0]))).status;

describe("a crash of the wasm instance", () => {
  afterEach(() => {
    Z3Session.beforeCheck = undefined;
    Z3Session.whileChecking = undefined;
  });

  it("fails the query with a SolverError, and the next query runs on a fresh instance", async () => {
    const session = await Z3Session.get();
    expect(await easy(session)).toBe("sat");
    const before = session.instances;
    class RuntimeError extends Error {} // what a wasm trap throws
    Z3Session.beforeCheck = () => {
      throw new RuntimeError("memory access out of bounds");
    };
    await expect(session.query("(declare-const x Int)", ["(> x 3)"], { rlimit: 1_000_000, backstopMs: 600_000 }, async () => undefined)).rejects.toThrow(SolverError);
    Z3Session.beforeCheck = undefined;
    expect(await easy(session)).toBe("sat");
    expect(session.instances).toBe(before + 1);
  });

  it("a solver thread that dies during a check fails that query, not the process, and the next query runs on a fresh instance", async () => {
    const session = await Z3Session.get();
    expect(await easy(session)).toBe("sat");
    const before = session.instances;
    let killed = 0;
    // What emscripten's worker emits when Z3 calls abort() on the thread running the check. The
    // check's thread is the newest running one: a thread an earlier check left (a nonlinear
    // check's timer) may still be finishing, and a crash there would fail the instance just the same.
    Z3Session.whileChecking = (threads) => {
      killed += threads.running().at(-1)?.emit?.("error", new Error("Aborted(native code called abort())")) ? 1 : 0;
    };
    try {
      await expect(session.query(cubes[0], [...cubes[1]], { rlimit: 4_000_000_000, backstopMs: 600_000 }, async () => undefined)).rejects.toThrow(/the solver failed \(a solver thread stopped \(Aborted\(native code called abort\(\)\)\)\); a new solver is started/);
    } finally {
      Z3Session.whileChecking = undefined;
    }
    expect(killed).toBe(1);
    expect(await easy(session)).toBe("sat");
    expect(session.instances).toBe(before + 1);
  });

  it("a check that ignores its interrupt is dropped with its instance, and its thread is killed", async () => {
    // Seen in the fuzzer: on some string and floating-point queries Z3 neither counts resources
    // nor stops when interrupted; its thread kept a core busy, and later aborted.
    const session = await Z3Session.get();
    expect(await easy(session)).toBe("sat");
    const before = session.instances;
    Z3Session.dropInterrupts = true;
    try {
      // The general solver only (a declaration only it takes, asserted about: attempts.ts): the
      // simple solver's first try would end by itself after its 30 000 units, within the
      // watchdog's grace.
      const cut = await session.query(`${cubes[0]}\n(declare-const general-only (_ BitVec 1))`, [...cubes[1], "(= general-only general-only)"], { rlimit: 4_000_000_000, backstopMs: 300, backstopReason: "the backstop (test)" }, async () => undefined);
      expect(cut).toEqual({ status: "unknown", reason: "the backstop (test)", wallClock: true, used: expect.any(Number) });
    } finally {
      Z3Session.dropInterrupts = false;
    }
    // A thread still solving would use about a core's worth of this process's CPU time.
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
    expect(await easy(session)).toBe("sat");
    expect(session.instances).toBe(before + 1);
  }, 600_000);

  it("a stack overflow inside Z3 is a crash too", async () => {
    const session = await Z3Session.get();
    const before = session.instances;
    Z3Session.beforeCheck = () => {
      throw new RangeError("Maximum call stack size exceeded");
    };
    await expect(session.query("(declare-const x Int)", ["(> x 3)"], { rlimit: 1_000_000, backstopMs: 600_000 }, async () => undefined)).rejects.toThrow(/a new solver is started/);
    Z3Session.beforeCheck = undefined;
    expect(await easy(session)).toBe("sat");
    expect(session.instances).toBe(before + 1);
  });
});

describe("the memory cap", () => {
  it("a query that needs more memory than the cap is unknown, and a fresh instance answers the next", async () => {
    const session = await Z3Session.get();
    const saved = Z3Session.memoryMb;
    Z3Session.memoryMb = 48;
    try {
      // Start an instance under the lower cap (the cap is set when an instance starts).
      Z3Session.beforeCheck = () => {
        throw new RangeError("Maximum call stack size exceeded");
      };
      await expect(easy(session)).rejects.toThrow(SolverError);
      Z3Session.beforeCheck = undefined;
      // Forty double multiplications bit-blasted: far more than 48 MB of clauses.
      const decls = Array.from({ length: 40 }, (_, i) => `(declare-const x${i} (_ FloatingPoint 11 53))`).join("\n");
      let product = "x0";
      for (let i = 1; i < 40; i++) product = `(fp.mul RNE ${product} x${i})`;
      const answer = await session.query(decls, [`(fp.eq ${product} ((_ to_fp 11 53) RNE 7.0))`, "(fp.gt x1 x2)"], { rlimit: 4_000_000_000, backstopMs: 600_000 }, async () => undefined);
      expect(answer).toMatchObject({ status: "unknown", reason: expect.stringMatching(/memory cap of 48 MB/) });
      expect(answer.status === "unknown" && answer.wallClock).toBeFalsy();
      Z3Session.memoryMb = saved;
      const capped = session.instances;
      expect(await easy(session)).toBe("sat");
      expect(session.instances).toBe(capped + 1);
    } finally {
      Z3Session.memoryMb = saved;
      Z3Session.beforeCheck = undefined;
    }
  });
});

describe("the wall-clock backstop", () => {
  it("an answer the backstop cut short says so and is marked, unlike one the resource limit ended", async () => {
    const session = await Z3Session.get();
    const cut = await session.query(cubes[0], [...cubes[1]], { rlimit: 4_000_000_000, backstopMs: 300, backstopReason: "the backstop (test)" }, async () => undefined);
    expect(cut).toEqual({ status: "unknown", reason: "the backstop (test)", wallClock: true, used: expect.any(Number) });
    const spent = await session.query(cubes[0], [...cubes[1]], { rlimit: 200_000, backstopMs: 600_000 }, async () => undefined);
    expect(spent).toMatchObject({ status: "unknown", reason: expect.stringMatching(/resource limit of 200000 units; raise it with --rlimit/) });
    expect(spent.status === "unknown" && spent.wallClock).toBeFalsy();
    expect(await easy(session)).toBe("sat");
  });
});

describe("the program budget", () => {
  let clock = 0;
  const now = () => clock;

  it("gives each query the resource limit and the backstop, shortened to what is left of the program's time", () => {
    clock = 0;
    const budget = new ProgramBudget({ rlimit: 123, timeoutMs: 1000, programTimeoutMs: 5000 }, now);
    expect(budget.next()).toMatchObject({ rlimit: 123, backstopMs: 1000, backstopReason: expect.stringMatching(/wall-clock backstop of 1000 ms .* raise it with --timeout/) });
    clock = 4500;
    expect(budget.next()).toMatchObject({ rlimit: 123, backstopMs: 500, backstopReason: expect.stringMatching(/time budget of 5000 ms ran out .* --program-timeout/) });
    expect(budget.wallClock).toBeUndefined();
    clock = 5000;
    expect(budget.next()).toBeUndefined();
    expect(budget.wallClock).toMatch(/time budget of 5000 ms ran out/);
  });

  it("remembers answers that came from the wall clock, not others", () => {
    clock = 0;
    const budget = new ProgramBudget({}, now);
    budget.note({ status: "unknown", reason: "no answer within the resource limit" });
    budget.note({ status: "sat" });
    expect(budget.wallClock).toBeUndefined();
    budget.note({ status: "unknown", reason: "backstop", wallClock: true });
    expect(budget.wallClock).toBe("backstop");
  });
});

describe("the editor's proof cache", () => {
  const job = (key: string, slot: string, verdict: ProgramVerdict, log: string[]): ProofJob => ({
    key,
    slot,
    prove: async () => {
      log.push(`prove ${key}`);
      return verdict;
    },
    isCurrent: () => true,
    onSettled: () => log.push(`settled ${key}`),
  });
  const idle = async (s: ProofScheduler) => {
    while (s.busy) await new Promise((r) => setTimeout(r, 5));
  };

  it("shows a provisional verdict once and proves that content again on the next request", async () => {
    const s = new ProofScheduler();
    const log: string[] = [];
    const provisional: ProgramVerdict = { file: "plan.ts", verdict: "refused", results: [], provisional: "the program's time budget ran out" };
    expect(s.request(job("p", "a", provisional, log))).toBeUndefined();
    await idle(s);
    expect(s.request(job("p", "a", provisional, log))).toEqual({ verdict: provisional });
    expect(s.request(job("p", "a", provisional, log))).toBeUndefined();
    await idle(s);
    expect(log).toEqual(["prove p", "settled p", "prove p", "settled p"]);
  });

  it("keeps a final verdict", async () => {
    const s = new ProofScheduler();
    const log: string[] = [];
    const final: ProgramVerdict = { file: "plan.ts", verdict: "proved", results: [] };
    s.request(job("f", "a", final, log));
    await idle(s);
    expect(s.request(job("f", "a", final, log))).toEqual({ verdict: final });
    expect(s.request(job("f", "a", final, log))).toEqual({ verdict: final });
    expect(s.started).toBe(1);
  });
});
