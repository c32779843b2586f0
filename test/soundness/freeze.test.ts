/**
 * Issue 8, hole 6 (run time): a guarantee and the arrays inside its arguments are frozen at every
 * depth, and the contract body reads the same frozen values, so agent code cannot change what
 * was proved after the proof.
 */
import { contract, type ContractSpec } from "../../runtime/spec";
import { frozenCopy } from "../../runtime/freeze";

const seen: unknown[][] = [];
const onlyFiles = contract({ description: "Only {files} in {groups}." }, (files: string[], groups: string[][]): ContractSpec => {
  seen.push([files, groups]);
  return { kind: "none" };
});

describe("guarantee arguments are frozen deeply", () => {
  it("freezes the guarantee, its argument list, and every array inside an argument", () => {
    const g = onlyFiles(["a.md"], [["x"], ["y"]]);
    expect(Object.isFrozen(g)).toBe(true);
    expect(Object.isFrozen(g.args)).toBe(true);
    const [files, groups] = g.args as [string[], string[][]];
    expect(Object.isFrozen(files)).toBe(true);
    expect(Object.isFrozen(groups)).toBe(true);
    expect(Object.isFrozen(groups[0])).toBe(true);
    expect(() => files.push("/secrets/key")).toThrow(TypeError);
    expect(() => { groups[1]![0] = "/secrets"; }).toThrow(TypeError);
    expect(g.args).toEqual([["a.md"], [["x"], ["y"]]]);
  });

  it("keeps the values it was created with when the caller's arrays change afterwards", () => {
    const mine = ["a.md"];
    const g = onlyFiles(mine, []);
    mine.push("/secrets/key");
    expect(g.args[0]).toEqual(["a.md"]);
    expect(g.description).toBe('Only ["a.md"] in [].');
  });

  it("gives the contract body the frozen arguments", () => {
    seen.length = 0;
    const g = onlyFiles(["a.md"], [["x"]]);
    void g.spec;
    const [files, groups] = seen[0] as [string[], string[][]];
    expect(files).toBe(g.args[0]);
    expect(Object.isFrozen(files)).toBe(true);
    expect(Object.isFrozen(groups[0])).toBe(true);
  });

  it("copies plain objects and leaves primitives as they are", () => {
    const source = { paths: ["a"], n: 1 };
    const copy = frozenCopy(source);
    expect(copy).toEqual(source);
    expect(copy).not.toBe(source);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.paths)).toBe(true);
    expect(Object.isFrozen(source)).toBe(false);
    expect(frozenCopy("x")).toBe("x");
    expect(frozenCopy(-0)).toBe(-0);
  });

  it("is not fooled by an index setter on Array.prototype", () => {
    const hits: unknown[] = [];
    // The setter behaves like a plain assignment (other arrays keep working) but records the copy's element.
    Object.defineProperty(Array.prototype, "0", {
      configurable: true,
      set(this: unknown[], v: unknown) {
        if (v === "a.md") hits.push(v);
        Object.defineProperty(this, "0", { value: v, writable: true, enumerable: true, configurable: true });
      },
    });
    try {
      const copy = frozenCopy(["a.md"]);
      expect(Object.getOwnPropertyDescriptor(copy, "0")?.value).toBe("a.md");
      expect(hits).toEqual([]);
    } finally {
      delete (Array.prototype as unknown as Record<string, unknown>)["0"];
    }
  });
});
