/**
 * The editor's proof scheduler (language-service/scheduler.ts) with fake proofs: each "query"
 * holds its turn for a while, or until the scheduler takes the solver back, and is asked again
 * when it was preempted, as `Z3Session.query` does. Only the order of events is asserted.
 */
import type { ProgramVerdict } from "../../core/prover/api";
import { ProofAbandoned, type SolverShare } from "../../core/prover/turns";
import { ProofScheduler, type ProofJob } from "../../language-service/scheduler";

const YOUNG = 40;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const verdict = (file: string): ProgramVerdict => ({ file, verdict: "proved", results: [] });

/** One fake query of `ms`: `name q` when it runs, `name interrupted` when preempted (then asked again). */
async function query(share: SolverShare, ms: number, name: string, log: string[]): Promise<void> {
  for (;;) {
    const turn = await share.turn();
    log.push(`${name} q`);
    const stopped = await Promise.race([sleep(ms).then(() => false), turn.stop.then(() => true)]);
    turn.end();
    if (!stopped) return;
    log.push(`${name} interrupted`);
  }
}

function job(key: string, slot: string, queries: number, ms: number, log: string[], extra: Partial<ProofJob> = {}): ProofJob {
  return {
    key,
    slot,
    prove: async (share) => {
      try {
        for (let i = 0; i < queries; i++) await query(share, ms, key, log);
      } catch (error) {
        if (error instanceof ProofAbandoned) log.push(`${key} abandoned (${error.reason})`);
        throw error;
      }
      return verdict(key);
    },
    isCurrent: () => true,
    onSettled: () => log.push(`${key} settled`),
    ...extra,
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

describe("the editor's proof scheduler", () => {
  it("gives a young proof the solver before an old one, interrupting the old one's query", async () => {
    const s = new ProofScheduler(undefined, undefined, YOUNG);
    const log: string[] = [];
    s.request(job("slow", "a", 1000, 200, log));
    await until(() => log.includes("slow q"));
    s.request(job("quick", "b", 3, 5, log));
    await until(() => log.includes("quick settled"));
    expect(log.indexOf("slow interrupted")).toBeGreaterThan(0);
    expect(log.indexOf("slow interrupted")).toBeLessThan(log.indexOf("quick q"));
    expect(log).not.toContain("slow settled");
    expect(s.stats.preempted).toBeGreaterThanOrEqual(1);
    // A new text of the slow slot abandons its proof: the waiting or running query ends, nothing is shown.
    s.request(job("slow2", "a", 1, 5, log));
    await until(() => log.includes("slow2 settled"));
    await until(() => log.includes("slow abandoned (stale)"));
    expect(log).not.toContain("slow settled");
    expect(s.request(job("slow", "c", 1, 5, log))).toBeUndefined();
  });

  it("lets two old proofs take turns query by query", async () => {
    const s = new ProofScheduler(undefined, undefined, 1);
    const log: string[] = [];
    s.request(job("x", "a", 12, 10, log));
    s.request(job("y", "b", 12, 10, log));
    await until(() => log.includes("x settled") && log.includes("y settled"));
    const owners = log.filter((l) => l.endsWith(" q")).map((l) => l[0]);
    let run = 0;
    let longest = 0;
    for (let i = 0; i < owners.length; i++) {
      run = i > 0 && owners[i] === owners[i - 1] ? run + 1 : 1;
      // Until one of them is done, neither runs more than two queries while the other waits.
      if (owners.slice(i).includes("x") && owners.slice(i).includes("y")) longest = Math.max(longest, run);
    }
    expect(longest).toBeLessThanOrEqual(2);
  });

  it("abandons a proof that spends its budget, shows the budget verdict, and keeps it for that content", async () => {
    const s = new ProofScheduler(undefined, undefined, YOUNG);
    const log: string[] = [];
    const refused: ProgramVerdict = { file: "slow", verdict: "refused", results: [] };
    const budgeted = job("slow", "a", 1_000_000, 30, log, { budgetMs: 100, budgetVerdict: (spent) => ({ ...refused, provisional: undefined, file: `slow after ${JSON.stringify(spent)}` }) });
    s.request(budgeted);
    await until(() => log.includes("slow settled"));
    expect(log).toContain("slow abandoned (budget)");
    expect(s.stats.budget).toBe(1);
    expect(s.request(budgeted)).toEqual({ verdict: { ...refused, provisional: undefined, file: 'slow after {"solverMs":100}' } });
    expect(s.started).toBe(1);
  });

  it("gives a proof the job's cap on steps at once on this thread, and shows the budget verdict when its execution stops there", async () => {
    const s = new ProofScheduler(undefined, undefined, YOUNG);
    const log: string[] = [];
    const refused: ProgramVerdict = { file: "unrolled", verdict: "refused", results: [] };
    const seen: (number | undefined)[] = [];
    const unrolled: ProofJob = {
      key: "unrolled",
      slot: "a",
      prove: async (share) => {
        seen.push(share.hostSteps);
        await share.pause?.();
        throw new ProofAbandoned("steps"); // as exec/context.ts `tick` does past the cap
      },
      isCurrent: () => true,
      onSettled: () => log.push("unrolled settled"),
      hostSteps: 25,
      budgetVerdict: (spent) => ({ ...refused, file: `unrolled after ${JSON.stringify(spent)}` }),
    };
    s.request(unrolled);
    await until(() => log.includes("unrolled settled"));
    expect(seen).toEqual([25]);
    expect(s.stats.steps).toBe(1);
    expect(s.request(unrolled)).toEqual({ verdict: { ...refused, file: 'unrolled after {"hostSteps":25}' } });
    // A job without the cap: the proof sees none.
    s.request(job("plain", "b", 1, 1, log, { prove: async (share) => (seen.push(share.hostSteps), verdict("plain")) }));
    await until(() => seen.length === 2);
    expect(seen[1]).toBeUndefined();
  });

  it("lets a more recently requested young proof take the solver from a young one after a slice, and not back", async () => {
    // Both stay young throughout (YOUNG is far away): only the slice and the request order decide.
    const s = new ProofScheduler(undefined, undefined, 600_000, 10);
    const log: string[] = [];
    s.request(job("slow", "a", 1, 600_000, log));
    await until(() => log.includes("slow q"));
    s.request(job("quick", "b", 3, 5, log));
    await until(() => log.includes("quick settled"));
    expect(log.indexOf("slow interrupted")).toBeGreaterThan(0);
    expect(log.indexOf("slow interrupted")).toBeLessThan(log.indexOf("quick q"));
    // The older young proof waited for the newer one: it never took the solver back.
    expect(log).not.toContain("quick interrupted");
    expect(log).not.toContain("slow settled");
    s.request(job("slow2", "a", 1, 5, log));
    await until(() => log.includes("slow abandoned (stale)"));
  });

  it("looks again when the young holder has really grown old, even if its timer fired early", async () => {
    // Node's timers count whole milliseconds of the event loop's clock, so a timer can fire up to
    // a millisecond before `performance.now()` says its time has passed: make every timer early.
    const realSetTimeout = globalThis.setTimeout;
    const early = vi.spyOn(globalThis, "setTimeout").mockImplementation(((f: () => void, ms?: number) => realSetTimeout(f, Math.max(0, (ms ?? 0) - 2))) as typeof setTimeout);
    try {
      const s = new ProofScheduler(undefined, undefined, 100, 600_000);
      const log: string[] = [];
      // `waiter` is requested first but runs a step before its first query, so `slow` gets the
      // solver, and being the more recent it keeps it until it grows old.
      const waiter = job("waiter", "a", 1, 5, log);
      s.request({ ...waiter, prove: async (share) => (await sleep(50), waiter.prove(share)) });
      s.request(job("slow", "b", 1, 600_000, log));
      await until(() => log.includes("waiter settled"));
      expect(log.indexOf("slow q")).toBe(0);
      expect(log.indexOf("slow interrupted")).toBeLessThan(log.indexOf("waiter q"));
      s.request(job("slow2", "b", 1, 5, log));
      await until(() => log.includes("slow abandoned (stale)"));
    } finally {
      early.mockRestore();
    }
  });

  it("lets the most recently requested proof's steps go before an older proof's paused steps", async () => {
    const s = new ProofScheduler(undefined, undefined, 600_000);
    const log: string[] = [];
    const stepper = (key: string, slot: string, steps: number, done = () => false): ProofJob => ({
      key,
      slot,
      prove: async (share) => {
        for (let i = 0; i < steps && !done(); i++) {
          log.push(`${key} ${i}`);
          await share.pause!();
        }
        return verdict(key);
      },
      isCurrent: () => true,
      onSettled: () => log.push(`${key} settled`),
    });
    // The old proof keeps stepping until the new one has settled.
    s.request(stepper("old", "a", Number.MAX_SAFE_INTEGER, () => log.includes("new settled")));
    await until(() => log.includes("old 3"));
    s.request(stepper("new", "b", 5));
    await until(() => log.includes("old settled"));
    const first = log.indexOf("new 0");
    expect(log.slice(first, first + 6)).toEqual(["new 0", "new 1", "new 2", "new 3", "new 4", "new settled"]);
  });

  it("abandons a proof when a file it reads changed, at its next pause, and asks the requester to look again", async () => {
    const s = new ProofScheduler(undefined, undefined, YOUNG);
    const log: string[] = [];
    let version = 1;
    s.request({
      key: "p",
      slot: "a",
      prove: async (share) => {
        try {
          for (;;) {
            log.push("step");
            await share.pause!();
          }
        } catch (error) {
          if (error instanceof ProofAbandoned) log.push(`abandoned (${error.reason})`);
          throw error;
        }
      },
      isCurrent: () => true,
      unchanged: () => version === 1,
      onSettled: () => log.push("asked to look again"),
    });
    await until(() => log.filter((l) => l === "step").length >= 3);
    version = 2;
    await until(() => log.includes("abandoned (stale)"));
    expect(log.slice(-2)).toEqual(["asked to look again", "abandoned (stale)"]);
    expect(s.busy).toBe(false);
  });
});
