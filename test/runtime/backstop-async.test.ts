import { setTimeout as sleep } from "node:timers/promises";
import { EnsuresError, GuaranteeViolationError, IncompleteRunError, ToolCall, ensures, enforce, record, trusted, type Occurrence } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, type ContractSpec } from "clauz3/spec";

// Every call here is made inside a run (no unowned calls of the process; see backstop-load.test.ts).

class Fetch extends Event {
  constructor(readonly url: string) { super(); }
}

const started: string[] = [];
const fetched: string[] = [];

/** An async tool: the implementation resolves later. */
const fetchPage = trusted(
  performs((url: string) => new Fetch(url)),
  ensures((page: string) => page.length > 0, "a page is never empty"),
  async function fetchPage(url: string): Promise<string> {
    started.push(url);
    await sleep(1);
    fetched.push(url);
    return url.endsWith("/empty") ? "" : `<html>${url}</html>`;
  },
);

/** An async tool whose implementation fails. */
const flaky = trusted(performs((url: string) => new Fetch(url)), async function flaky(url: string): Promise<string> {
  await sleep(1);
  throw new Error(`${url} timed out`);
});

const atMostFetches = contract(function atMostFetches(n: number): ContractSpec {
  return Fetch.count().atMost(n);
});
const atLeastFetches = contract(function atLeastFetches(n: number): ContractSpec {
  return Fetch.count().atLeast(n);
});
const neverFetch = contract(function neverFetch(host: string): ContractSpec {
  return Fetch.all((f) => !f.url.startsWith(`https://${host}/`));
});

const urls = (trace: readonly Occurrence[]): unknown[] => trace.filter((o) => o instanceof ToolCall).map((o) => (o as ToolCall).fields.url);

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("enforce: async tools and an async main", () => {
  beforeEach(() => {
    started.length = 0;
    fetched.length = 0;
  });

  it("an async tool's call and events are recorded when it is called, before its promise settles", async () => {
    await enforce([], async () => {
      let pending: Promise<string> | undefined;
      const { trace } = record(() => {
        pending = fetchPage("https://a.example/");
      });
      expect(fetched).toEqual([]);
      expect(trace.map((o) => o.toJSON())).toEqual([
        { effect: "fetchPage", url: "https://a.example/" },
        { event: "Fetch", url: "https://a.example/" },
      ]);
      expect(await pending).toBe("<html>https://a.example/</html>");
    });
  });

  it("ensures is checked on the resolved value", async () => {
    const e = (await rejection(enforce([], async () => fetchPage("https://a.example/empty")))) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.cause).toBeInstanceOf(EnsuresError);
    expect((e.cause as EnsuresError).message).toBe('fetchPage(url="https://a.example/empty") returned "": postcondition failed: a page is never empty');
  });

  it("calls after an await still belong to the run: checked before they happen, in its trace", async () => {
    const { result, trace } = await enforce([atMostFetches(2)], async function main() {
      const first = await fetchPage("https://a.example/1");
      await sleep(1);
      const second = await fetchPage("https://a.example/2");
      return [first, second];
    });
    expect(result).toEqual(["<html>https://a.example/1</html>", "<html>https://a.example/2</html>"]);
    expect(urls(trace)).toEqual(["https://a.example/1", "https://a.example/2"]);

    const e = (await rejection(
      enforce([neverFetch("evil.example")], async function main() {
        await fetchPage("https://a.example/");
        await sleep(1);
        await fetchPage("https://evil.example/steal");
      }),
    )) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.cause).toBeInstanceOf(GuaranteeViolationError);
    expect((e.cause as GuaranteeViolationError).message).toBe(
      'fetchPage: refused at run time: neverFetch: Fetch("https://evil.example/steal") breaks Fetch.all(…)',
    );
    expect(started).toEqual(["https://a.example/1", "https://a.example/2", "https://a.example/"]);
  });

  it("calls from timers and un-awaited promises started in main belong to the run", async () => {
    const e = (await rejection(
      enforce([atMostFetches(1)], async () => {
        await new Promise<void>((resolve, reject) => {
          setTimeout(() => {
            try {
              void fetchPage("https://a.example/1"); // not awaited
              fetchPage("https://a.example/2").then(() => resolve(), reject);
            } catch (error) {
              reject(error);
            }
          }, 1);
        });
      }),
    )) as IncompleteRunError;
    expect(e.cause).toBeInstanceOf(GuaranteeViolationError);
    expect(started).toEqual(["https://a.example/1"]);
  });

  it("whole-run guarantees are checked when the async main settles", async () => {
    const e = (await rejection(enforce([atLeastFetches(2)], async () => { await fetchPage("https://a.example/"); }))) as GuaranteeViolationError;
    expect(e).toBeInstanceOf(GuaranteeViolationError);
    expect(e.phase).toBe("return");
    expect(e.contract).toBe("atLeastFetches");
    const { trace } = await enforce([atLeastFetches(2)], async () => {
      await Promise.all([fetchPage("https://a.example/1"), fetchPage("https://a.example/2")]);
    });
    expect(trace).toHaveLength(4);
  });

  it("an async main that rejects is an incomplete run", async () => {
    const e = (await rejection(
      enforce([atLeastFetches(1)], async function main() {
        await fetchPage("https://a.example/");
        throw new Error("gave up");
      }),
    )) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect((e.cause as Error).message).toBe("gave up");
    expect(e.unestablished).toEqual(["atLeastFetches"]);
    expect(urls(e.trace)).toEqual(["https://a.example/"]);
  });

  it("an async main that does not await its calls: the run ends when they settle", async () => {
    const { trace } = await enforce([atLeastFetches(2)], async () => {
      void fetchPage("https://a.example/1");
      void fetchPage("https://a.example/2");
    });
    expect(fetched).toEqual(["https://a.example/1", "https://a.example/2"]);
    expect(urls(trace)).toEqual(["https://a.example/1", "https://a.example/2"]);
    // One fails after main returned: still part of the run, which is incomplete.
    const late = (await rejection(
      enforce([], async () => {
        flaky("https://slow.example/").catch(() => undefined);
      }),
    )) as IncompleteRunError;
    expect(late.how).toBe("call-failed");
  });

  it("a call of an async tool that rejects leaves the run incomplete even when main catches it", async () => {
    const e = (await rejection(
      enforce([atLeastFetches(1)], async () => {
        try {
          await flaky("https://slow.example/");
        } catch {
          // ignored
        }
      }),
    )) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.how).toBe("call-failed");
    expect((e.cause as Error).message).toBe("https://slow.example/ timed out");
  });

  it("a synchronous main that returns while async calls it started are running leaves the run incomplete", () => {
    let e: unknown;
    try {
      enforce([atLeastFetches(1)], () => {
        void fetchPage("https://a.example/").catch(() => undefined);
      });
    } catch (error) {
      e = error;
    }
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect((e as IncompleteRunError).how).toBe("calls-pending");
    expect((e as Error).message).toMatch(/^main returned while calls it started were still running, so the run is incomplete: Clauz3Error: 1 call of an async tool was still running; make main async and await every call\./);
  });

  it("runs in flight at the same time never see each other's calls", async () => {
    const run = (name: string) =>
      enforce([atMostFetches(2)], async () => {
        for (let i = 0; i < 2; i++) {
          await sleep(1);
          await fetchPage(`https://${name}.example/${i}`);
        }
        return name;
      });
    const [a, b, c] = await Promise.all([run("a"), run("b"), run("c")]);
    expect([a.result, b.result, c.result]).toEqual(["a", "b", "c"]);
    expect(urls(a.trace)).toEqual(["https://a.example/0", "https://a.example/1"]);
    expect(urls(b.trace)).toEqual(["https://b.example/0", "https://b.example/1"]);
    expect(started).toHaveLength(6);
  });

  it("a run that breaks its guarantee does not stop another run in flight", async () => {
    const [bad, good] = await Promise.allSettled([
      enforce([atMostFetches(0)], async () => { await sleep(1); await fetchPage("https://bad.example/"); }),
      enforce([atMostFetches(1)], async () => { await sleep(2); return fetchPage("https://good.example/"); }),
    ]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && good.value.result).toBe("<html>https://good.example/</html>");
  });

  it("a call made after the run ended is refused", async () => {
    let late: unknown;
    let done!: () => void;
    const fired = new Promise<void>((resolve) => (done = resolve));
    await enforce([atMostFetches(5)], async () => {
      setTimeout(() => {
        try {
          fetchPage("https://late.example/");
        } catch (e) {
          late = e;
        }
        done();
      }, 5);
    });
    await fired;
    expect(late).toBeInstanceOf(GuaranteeViolationError);
    expect((late as Error).message).toBe("fetchPage: refused at run time: called after main returned; a run makes no calls after it ends");
    expect(started).toEqual([]);
  });
});
