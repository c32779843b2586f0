import { record, trusted } from "clauz3";
import { Event, performs } from "clauz3/events";
import { check } from "clauz3/spec";
import { Delete, FsEvent, Read, Write, WriteText } from "../../stdlib/filesystem/trusted/events";

describe("Event values", () => {
  const touch = trusted(
    performs((path: string) => new Read(path)),
    function touch(path: string): string {
      return path;
    },
  );

  it("freezes every event a trusted tool records", () => {
    const { trace } = record(() => touch("a.md"));
    const event = trace[1];
    expect(event).toBeInstanceOf(Read);
    expect(Object.isFrozen(event)).toBe(true);
    expect(() => {
      (event as unknown as { path: string }).path = "b.md";
    }).toThrow(TypeError);
    expect((event as Read).path).toBe("a.md");
  });

  it("compares structurally by class and fields", () => {
    expect(new Read("a").equals(new Read("a"))).toBe(true);
    expect(new Read("a").equals(new Read("b"))).toBe(false);
    expect(new Read("a").equals(new Write("a"))).toBe(false);
    // A subclass instance is not equal to a base-class instance with the same fields.
    expect(new Write("a").equals(new Delete("a"))).toBe(false);
    expect(new WriteText("a", "x").equals(new WriteText("a", "x"))).toBe(true);
    expect(new WriteText("a", "x").equals(new WriteText("a", "y"))).toBe(false);
    expect(new Read("a").equals({ path: "a" })).toBe(false);
    expect(new Read("a").equals(undefined)).toBe(false);
  });

  it("compares by the class declaration, not its name", () => {
    const Other = (() => {
      class Read extends FsEvent {}
      return Read;
    })();
    expect(Other.name).toBe("Read");
    expect(new Read("a").equals(new Other("a"))).toBe(false);
  });

  it("serialises as { event, ...fields } with inherited fields first", () => {
    expect(new Read("notes/a.md").toJSON()).toEqual({ event: "Read", path: "notes/a.md" });
    expect(JSON.stringify(new Read("notes/a.md"))).toBe('{"event":"Read","path":"notes/a.md"}');
    expect(Object.keys(new WriteText("a.md", "hi").toJSON())).toEqual(["event", "path", "text"]);
    expect(new WriteText("a.md", "hi").toJSON()).toEqual({ event: "WriteText", path: "a.md", text: "hi" });
    expect(String(new WriteText("a.md", "hi"))).toBe('WriteText("a.md", "hi")');
  });

  it("exposes fields in declaration order", () => {
    expect(new WriteText("p", "t").fields()).toEqual({ path: "p", text: "t" });
    expect(Object.keys(new WriteText("p", "t").fields())).toEqual(["path", "text"]);
  });

  it("relations cover subclasses: Write covers Delete and WriteText, not Read", () => {
    const trace = [new Delete("a"), new WriteText("b", "x"), new Read("c")];
    expect(check(Write.count().equals(2), trace)).toEqual([]);
    expect(check(Delete.count().equals(1), trace)).toEqual([]);
    expect(check(FsEvent.count().equals(3), trace)).toEqual([]);
    expect(check(Read.count().equals(1), trace)).toEqual([]);
    expect(check(Write.empty(), trace)).toHaveLength(2);
  });

  it("a new class merely named Write is another relation", () => {
    const Impostor = (() => {
      class Write extends Event {
        constructor(readonly path: string) { super(); }
      }
      return Write;
    })();
    expect(Impostor.name).toBe(Write.name);
    const real = [new Write("a")];
    const fake = [new Impostor("a")];
    expect(check(Write.empty(), fake)).toEqual([]);
    expect(check(Impostor.empty(), real)).toEqual([]);
    expect(check(Write.empty(), real)).toHaveLength(1);
    expect(check(Impostor.empty(), fake)).toHaveLength(1);
    // Same relation object per class: two calls on one class agree.
    expect(Write.where(() => true).data.source).toBe(Write.where(() => false).data.source);
    expect(Write.where(() => true).data.source).not.toBe(Impostor.where(() => true).data.source);
  });
});
