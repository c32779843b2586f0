import { ArgumentError, GuaranteeViolationError, IncompleteRunError, IntrinsicsChangedError, enforce, record, trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { check, contract, type ContractSpec } from "clauz3/spec";
import { checkSpec } from "../../runtime/check";
import { changedIntrinsic } from "../../runtime/integrity";

// Agent code may replace built-ins. Each test restores what it replaced before it asserts
// anything (vitest itself runs on these built-ins).

class Read extends Event {
  constructor(readonly path: string) { super(); }
}
class Touch extends Event {
  constructor(readonly target: Target) { super(); }
}
/** A class instance is passed to tools as it is (not copied): its methods are the caller's. */
class Target {
  constructor(readonly name: string) {}
  safe(): boolean {
    return !this.name.includes("secret");
  }
}

const reads: unknown[] = [];
const readFile = trusted(
  performs((path: string) => new Read(path)),
  function readFile(path: string): string {
    reads.push(path);
    return `contents of ${path}`;
  },
);
const readAll = trusted(
  performs((path: string) => new Read(path)),
  function readAll(path: string, also: readonly string[]): number {
    reads.push([path, also]);
    return also.length;
  },
);
const touch = trusted(
  performs((target: Target) => new Touch(target)),
  function touch(target: Target): void {
    reads.push(target.name);
  },
);

const neverReadUnder = contract(function neverReadUnder(prefix: string): ContractSpec {
  return Read.all((r) => !r.path.startsWith(prefix));
});
const onlySafeTargets = contract(function onlySafeTargets(): ContractSpec {
  return Touch.all((t) => t.target.safe());
});

/** Replace `owner[key]` with `value` while `body` runs; always restores the original. */
function patched<T>(owner: object, key: PropertyKey, value: unknown, body: () => T): T {
  const original = Object.getOwnPropertyDescriptor(owner, key);
  Object.defineProperty(owner, key, { value, writable: true, configurable: true });
  try {
    return body();
  } finally {
    if (original) Object.defineProperty(owner, key, original);
    else delete (owner as Record<PropertyKey, unknown>)[key];
  }
}

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e;
  }
}

describe("built-ins changed by agent code", () => {
  beforeEach(() => {
    reads.length = 0;
  });

  it("nothing differs from the baseline in a clean realm", () => {
    expect(changedIntrinsic()).toBeUndefined();
  });

  it("String.prototype.startsWith = () => false cannot make the backstop miss a read under the prefix", () => {
    // Control: unpatched, the read is refused as a violation.
    const control = outcome(() => enforce([neverReadUnder("/secrets")], () => readFile("/secrets/key"))) as IncompleteRunError;
    expect(control.cause).toBeInstanceOf(GuaranteeViolationError);
    // Patched inside main: the call is refused before anything is checked or run.
    const e = outcome(() =>
      enforce([neverReadUnder("/secrets")], () => patched(String.prototype, "startsWith", () => false, () => readFile("/secrets/key"))),
    ) as IncompleteRunError;
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect(e.cause).toBeInstanceOf(IntrinsicsChangedError);
    expect((e.cause as IntrinsicsChangedError).changed).toBe("String.prototype.startsWith");
    expect((e.cause as Error).message).toBe(
      "readFile: refused at run time: String.prototype.startsWith was changed after clauz3 loaded; guarantees are not checked " +
        "with changed built-ins. Programs must not modify built-in objects (load polyfills before clauz3).",
    );
    expect(reads).toEqual([]);
  });

  it("a program that patches, catches the refusal and restores still fails its run", () => {
    const e = outcome(() =>
      enforce([neverReadUnder("/secrets")], () => {
        try {
          patched(String.prototype, "startsWith", () => false, () => readFile("/secrets/key"));
        } catch {
          // swallowed
        }
        return readFile("/public/readme");
      }),
    );
    expect(e).toBeInstanceOf(IntrinsicsChangedError);
    expect(reads).toEqual(["/public/readme"]);
  });

  it("a built-in changed before enforce starts stops the run before main runs", () => {
    let ran = false;
    const e = patched(Array.prototype, "filter", () => [], () => outcome(() => enforce([neverReadUnder("/secrets")], () => (ran = true))));
    expect(e).toBeInstanceOf(IntrinsicsChangedError);
    expect((e as IntrinsicsChangedError).changed).toBe("Array.prototype.filter");
    expect(ran).toBe(false);
  });

  it("check() refuses to answer while a built-in is changed", () => {
    const trace = record(() => enforce([], () => readFile("/secrets/a"))).trace;
    expect(check(neverReadUnder("/secrets"), trace)).toHaveLength(1);
    expect(patched(String.prototype, "startsWith", () => false, () => outcome(() => check(neverReadUnder("/secrets"), trace)))).toBeInstanceOf(
      IntrinsicsChangedError,
    );
  });

  it("added properties, a changed prototype and a rebound global are changes too", () => {
    expect(patched(Object.prototype, "then", () => undefined, () => changedIntrinsic())).toBe("Object.prototype.then");
    expect(patched(Array.prototype, Symbol.iterator, () => [][Symbol.iterator](), () => changedIntrinsic())).toBe(
      "Array.prototype[Symbol(Symbol.iterator)]",
    );
    expect(patched(Function.prototype, "call", () => undefined, () => changedIntrinsic())).toBe("Function.prototype.call");
    expect(patched(globalThis, "Math", { max: () => 0 }, () => changedIntrinsic())).toBe("the global Math");
    const proto = Object.getPrototypeOf(String.prototype) as object;
    Object.setPrototypeOf(String.prototype, null);
    let seen: string | undefined;
    try {
      seen = changedIntrinsic();
    } finally {
      Object.setPrototypeOf(String.prototype, proto);
    }
    expect(seen).toBe("the prototype of String.prototype");
    expect(changedIntrinsic()).toBeUndefined();
  });

  it("the checker itself uses only the built-ins captured at load", () => {
    const trace = record(() => enforce([], () => { readFile("/a"); readFile("/b"); })).trace;
    const spec = Read.all((r) => r.path === "/a");
    const replaced: [object, PropertyKey, unknown][] = [
      [Array.prototype, "filter", () => []],
      [Array.prototype, "map", () => []],
      [Array.prototype, "every", () => true],
      [Array.prototype, "reduce", () => 0],
      [Array.prototype, "push", () => 0],
      [Array.prototype, "includes", () => false],
      [Array.prototype, "flatMap", () => []],
      [Array.prototype, Symbol.iterator, function* () {}],
      [Function.prototype, "call", () => true],
      [Function.prototype, "apply", () => true],
      [JSON, "stringify", () => "x"],
      [Object, "freeze", (o: unknown) => o],
    ];
    // checkSpec is check without the built-in guard: it must find the violation on its own.
    const nested = (i: number): unknown =>
      i === replaced.length ? checkSpec(spec, trace) : patched(replaced[i]![0], replaced[i]![1], replaced[i]![2], () => nested(i + 1));
    const violations = nested(0) as ReturnType<typeof checkSpec>;
    expect(violations.map((v) => v.message)).toEqual(['Read("/b") breaks Read.all(…)']);
  });

  // Function.prototype[Symbol.hasInstance] cannot be replaced; a class's own static one can.
  it("a static Symbol.hasInstance on an event class does not hide its events", () => {
    const trace = record(() => enforce([], () => readFile("/secrets/x"))).trace;
    const e = patched(Read, Symbol.hasInstance, () => false, () => check(neverReadUnder("/secrets"), trace));
    expect(e).toHaveLength(1);
  });

  it("a built-in changed while a predicate runs (through the caller's own object) voids that check", () => {
    class Sneaky extends Target {
      override safe(): boolean {
        String.prototype.includes = () => false; // changes a built-in mid-check...
        return true; // ...and claims to be safe
      }
    }
    const original = String.prototype.includes;
    let e: unknown;
    try {
      e = outcome(() => enforce([onlySafeTargets()], () => touch(new Sneaky("secret"))));
    } finally {
      String.prototype.includes = original;
    }
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect((e as IncompleteRunError).cause).toBeInstanceOf(IntrinsicsChangedError);
    expect(reads).toEqual([]);
    expect(enforce([onlySafeTargets()], () => touch(new Target("plain"))).trace).toHaveLength(2);
  });

  it("a recorder's hook that changes a built-in before the backstop's check voids that check", () => {
    const original = String.prototype.startsWith;
    let e: unknown;
    try {
      // The outer record's hook runs before the inner run's check (outermost first).
      e = outcome(() =>
        record(() => enforce([neverReadUnder("/secrets")], () => readFile("/secrets/key")), {
          trace: [],
          before() {
            String.prototype.startsWith = () => false;
          },
        }),
      );
    } finally {
      String.prototype.startsWith = original;
    }
    expect(e).toBeInstanceOf(IncompleteRunError);
    expect((e as IncompleteRunError).cause).toBeInstanceOf(IntrinsicsChangedError);
    expect(reads).toEqual([]);
  });

  it("the tool wrapper refuses rather than run on changed built-ins", () => {
    for (const [owner, key] of [[Array.prototype, "push"], [Function.prototype, "apply"], [Object, "freeze"], [Reflect, "apply"]] as const) {
      const e = patched(owner, key, () => undefined, () => outcome(() => readFile("/public/readme")));
      expect(e).toBeInstanceOf(IntrinsicsChangedError);
    }
    expect(reads).toEqual([]);
    expect(enforce([], () => readFile("/public/readme")).result).toBe("contents of /public/readme");
  });
});

describe("tool arguments are read once", () => {
  beforeEach(() => {
    reads.length = 0;
  });

  it("an array element getter cannot show the checks one value and the tool another", () => {
    let gets = 0;
    const also = ["/ok"];
    Object.defineProperty(also, 0, { get: () => (gets++ === 0 ? "/ok" : "/secrets/key"), enumerable: true });
    const { result } = enforce([], () => readAll("/ok", also));
    expect(result).toBe(1);
    expect(gets).toBe(1);
    expect(reads).toEqual([["/ok", ["/ok"]]]);
    expect(Object.isFrozen((reads[0] as unknown[])[1])).toBe(true);
  });

  it("a Proxy argument is refused before anything runs", () => {
    const e = outcome(() => enforce([], () => readAll("/ok", new Proxy(["/ok"], {})))) as IncompleteRunError;
    expect(e.cause).toBeInstanceOf(ArgumentError);
    expect((e.cause as Error).message).toBe(
      "readAll: refused at run time: argument also is a Proxy, which may answer the checks and the tool differently; pass a plain value",
    );
    expect(reads).toEqual([]);
  });

  it("plain objects and nested arrays are copied and frozen; class instances are passed as they are", () => {
    const nested = [["a"], ["b"]] as unknown as string[];
    enforce([], () => readAll("/p", nested));
    const seen = (reads[0] as unknown[])[1] as string[][];
    expect(seen).toEqual([["a"], ["b"]]);
    expect(seen).not.toBe(nested);
    expect(Object.isFrozen(seen[0])).toBe(true);
    const target = new Target("t");
    enforce([], () => touch(target));
    expect(reads[1]).toBe("t");
  });
});
