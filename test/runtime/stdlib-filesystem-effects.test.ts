import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GuaranteeViolationError, IncompleteRunError, RequiresError, ToolCall, enforce, record, toolInfo, traceMark, type Occurrence } from "clauz3";
import * as fsc from "../../stdlib/filesystem/trusted/contracts";
import {
  appendFile,
  copy,
  deleteFile,
  grep,
  listDir,
  move,
  readFile,
  readLines,
  removeTree,
  writeFile,
} from "../../stdlib/filesystem/trusted/effects";
import { DirectoryPath } from "clauz3";
import { Delete, Read, RecursiveRead, RecursiveWrite, Write, WriteText } from "../../stdlib/filesystem/trusted/events";

const events = (trace: readonly Occurrence[]): unknown[] =>
  trace.filter((o) => !(o instanceof ToolCall)).map((o) => o.toJSON());
const calls = (trace: readonly Occurrence[]): unknown[] =>
  trace.filter((o) => o instanceof ToolCall).map((o) => o.toJSON());

describe("stdlib filesystem tools on a real directory", () => {
  let root: string;
  const at = (...parts: string[]): string => path.join(root, ...parts);

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "clauz3-fs-"));
    fs.mkdirSync(at("data", "sub"), { recursive: true });
    fs.writeFileSync(at("data", "a.txt"), "alpha\nbeta\r\ngamma alpha\n");
    fs.writeFileSync(at("data", "sub", "b.txt"), "no match\nalphabet");
    fs.writeFileSync(at("top.txt"), "alpha at top");
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("readFile reads text and performs Read(path)", () => {
    const { result, trace } = record(() => readFile(at("top.txt")));
    expect(result).toBe("alpha at top");
    expect(calls(trace)).toEqual([{ effect: "readFile", path: at("top.txt") }]);
    expect(events(trace)).toEqual([{ event: "Read", path: at("top.txt") }]);
    expect(trace[1]).toBeInstanceOf(Read);
  });

  it("readLines splits on \\n and \\r\\n without a trailing empty line", () => {
    const { result, trace } = record(() => readLines(at("data", "a.txt")));
    expect(result).toEqual(["alpha", "beta", "gamma alpha"]);
    expect(events(trace)).toEqual([{ event: "Read", path: at("data", "a.txt") }]);
    fs.writeFileSync(at("empty.txt"), "");
    expect(readLines(at("empty.txt"))).toEqual([]);
    fs.writeFileSync(at("blank.txt"), "\n\n");
    expect(readLines(at("blank.txt"))).toEqual(["", ""]);
  });

  it("writeFile creates or overwrites and performs WriteText(path, text)", () => {
    const { trace } = record(() => {
      writeFile(at("new.txt"), "one");
      writeFile(at("new.txt"), "two");
    });
    expect(fs.readFileSync(at("new.txt"), "utf8")).toBe("two");
    expect(events(trace)).toEqual([
      { event: "WriteText", path: at("new.txt"), text: "one" },
      { event: "WriteText", path: at("new.txt"), text: "two" },
    ]);
    expect(trace[1]).toBeInstanceOf(Write);
    // No parent directories are created.
    expect(() => writeFile(at("missing", "x.txt"), "x")).toThrow(/ENOENT/);
    expect(fs.existsSync(at("missing"))).toBe(false);
  });

  it("appendFile appends and performs WriteText(path, text)", () => {
    const { trace } = record(() => {
      appendFile(at("log.txt"), "a\n");
      appendFile(at("log.txt"), "b\n");
    });
    expect(fs.readFileSync(at("log.txt"), "utf8")).toBe("a\nb\n");
    expect(events(trace)).toEqual([
      { event: "WriteText", path: at("log.txt"), text: "a\n" },
      { event: "WriteText", path: at("log.txt"), text: "b\n" },
    ]);
    expect(trace[1]).toBeInstanceOf(WriteText);
  });

  it("copy reads its source and writes its destination", () => {
    const { trace } = record(() => copy(at("top.txt"), at("data", "copy.txt")));
    expect(fs.readFileSync(at("data", "copy.txt"), "utf8")).toBe("alpha at top");
    expect(fs.existsSync(at("top.txt"))).toBe(true);
    expect(calls(trace)).toEqual([{ effect: "copy", src: at("top.txt"), dest: at("data", "copy.txt") }]);
    expect(events(trace)).toEqual([
      { event: "Read", path: at("top.txt") },
      { event: "Write", path: at("data", "copy.txt") },
    ]);
  });

  it("move reads and deletes its source and writes its destination", () => {
    const { trace } = record(() => move(at("top.txt"), at("data", "moved.txt")));
    expect(fs.existsSync(at("top.txt"))).toBe(false);
    expect(fs.readFileSync(at("data", "moved.txt"), "utf8")).toBe("alpha at top");
    expect(events(trace)).toEqual([
      { event: "Read", path: at("top.txt") },
      { event: "Delete", path: at("top.txt") },
      { event: "Write", path: at("data", "moved.txt") },
    ]);
    expect(trace[2]).toBeInstanceOf(Delete);
    expect(() => move(at("data"), at("elsewhere"))).toThrow(/is not a file/);
    expect(fs.existsSync(at("data"))).toBe(true);
  });

  it("deleteFile removes one file, never a directory, and performs Delete(path)", () => {
    const { trace } = record(() => deleteFile(at("top.txt")));
    expect(fs.existsSync(at("top.txt"))).toBe(false);
    expect(events(trace)).toEqual([{ event: "Delete", path: at("top.txt") }]);
    expect(() => deleteFile(at("data"))).toThrow();
    expect(fs.existsSync(at("data", "a.txt"))).toBe(true);
  });

  it("listDir lists recursively, sorted, relative, and performs RecursiveRead(dir)", () => {
    const { result, trace } = record(() => listDir(at("data")));
    expect(result).toEqual(["a.txt", "sub", "sub/b.txt"]);
    expect(events(trace)).toEqual([{ event: "RecursiveRead", dir: at("data") }]);
    expect(trace[1]).toBeInstanceOf(RecursiveRead);
    expect(trace[1]).not.toBeInstanceOf(Read);
  });

  it("listDir lists a symbolic link but does not follow it", () => {
    fs.symlinkSync(at("data", "sub"), at("data", "link"));
    expect(listDir(at("data"))).toEqual(["a.txt", "link", "sub", "sub/b.txt"]);
  });

  it("grep searches a tree for literal text and performs RecursiveRead(path)", () => {
    const { result, trace } = record(() => grep("alpha", at("data")));
    expect(result).toEqual(["a.txt:1:alpha", "a.txt:3:gamma alpha", "sub/b.txt:2:alphabet"]);
    expect(calls(trace)).toEqual([{ effect: "grep", pattern: "alpha", path: at("data") }]);
    expect(events(trace)).toEqual([{ event: "RecursiveRead", dir: at("data") }]);
    expect(grep("a.", at("data"))).toEqual([]); // literal, not a regular expression
  });

  it("grep searches a single file", () => {
    expect(grep("top", at("top.txt"))).toEqual(["top.txt:1:alpha at top"]);
  });

  it("removeTree removes a directory tree and performs RecursiveWrite(dir)", () => {
    const { trace } = record(() => removeTree(at("data")));
    expect(fs.existsSync(at("data"))).toBe(false);
    expect(fs.existsSync(at("top.txt"))).toBe(true);
    expect(events(trace)).toEqual([{ event: "RecursiveWrite", dir: at("data") }]);
    expect(trace[1]).toBeInstanceOf(RecursiveWrite);
    expect(trace[1]).not.toBeInstanceOf(Write);
    expect(() => removeTree(at("top.txt"))).toThrow(/is not a directory/);
    expect(fs.existsSync(at("top.txt"))).toBe(true);
  });

  it("preconditions refuse bad arguments before touching the disk", () => {
    const before = fs.readFileSync(at("top.txt"), "utf8");
    expect(() => copy(at("top.txt"), at("top.txt"))).toThrow(RequiresError);
    expect(() => move(at("top.txt"), at("top.txt"))).toThrow(/different source and destination/);
    expect(fs.readFileSync(at("top.txt"), "utf8")).toBe(before);
    expect(() => grep("", at("data"))).toThrow(/grep needs a non-empty pattern/);
    expect(() => removeTree("/")).toThrow(RequiresError);
    expect(() => removeTree("")).toThrow(RequiresError);
    const { trace } = record(() => {
      for (const tool of [readFile, readLines, deleteFile, listDir]) {
        expect(() => tool("")).toThrow(RequiresError);
      }
      expect(() => writeFile("", "x")).toThrow(RequiresError);
      expect(() => appendFile("", "x")).toThrow(RequiresError);
    });
    expect(trace).toEqual([]);
  });

  // The calls the tests above make outside enforce are unowned calls of this process, which every
  // later run is charged with by default; each run below is charged only with what follows its mark.
  const refusedBy = (f: () => unknown): GuaranteeViolationError => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(IncompleteRunError);
      expect((e as IncompleteRunError).cause).toBeInstanceOf(GuaranteeViolationError);
      return (e as IncompleteRunError).cause as GuaranteeViolationError;
    }
    throw new Error("expected the run to be refused");
  };

  it("the backstop refuses a write under readOnly before the file is touched", () => {
    const since = traceMark();
    const before = fs.readFileSync(at("top.txt"), "utf8");
    refusedBy(() =>
      enforce([fsc.readOnly()], () => {
        expect(readFile(at("top.txt"))).toBe(before);
        writeFile(at("top.txt"), "clobbered");
      }, { since }),
    );
    expect(fs.readFileSync(at("top.txt"), "utf8")).toBe(before);
    refusedBy(() => enforce([fsc.readOnly()], () => move(at("top.txt"), at("data", "t.txt")), { since }));
    expect(fs.existsSync(at("top.txt"))).toBe(true);
    refusedBy(() => enforce([fsc.readOnly()], () => removeTree(at("data")), { since }));
    expect(fs.existsSync(at("data", "a.txt"))).toBe(true);
  });

  it("the backstop refuses a read outside onlyReadsFilesUnder and allows the ones inside", () => {
    const since = traceMark();
    const { result } = enforce([fsc.onlyReadsFilesUnder(DirectoryPath(at("data")))], () => [
      readFile(at("data", "a.txt")),
      grep("alpha", at("data", "sub")),
    ], { since });
    expect(result[1]).toEqual(["b.txt:2:alphabet"]);
    expect(refusedBy(() => enforce([fsc.onlyReadsFilesUnder(DirectoryPath(at("data")))], () => readFile(at("data", "..", "top.txt")), { since })).tool).toBe(
      "readFile",
    );
  });

  it("without a mark, a run is charged with the calls the process made before it", () => {
    readFile(at("top.txt")); // outside any run: an unowned call of the process
    let ran = false;
    const e = (() => {
      try {
        enforce([fsc.onlyReadsFilesUnder(DirectoryPath(at("data")))], () => {
          ran = true;
        });
      } catch (error) {
        return error as GuaranteeViolationError;
      }
      throw new Error("expected a refusal at the start of the run");
    })();
    expect(e).toBeInstanceOf(GuaranteeViolationError);
    expect(e.phase).toBe("load");
    expect(e.tool).toBe("readFile");
    expect(ran).toBe(false);
  });

  it("every tool is trusted, with its parameters by name", () => {
    const tools = { readFile, readLines, writeFile, appendFile, copy, move, deleteFile, listDir, grep, removeTree };
    const parameters = Object.fromEntries(Object.entries(tools).map(([k, t]) => [k, toolInfo(t)?.parameters]));
    expect(parameters).toEqual({
      readFile: ["path"],
      readLines: ["path"],
      writeFile: ["path", "text"],
      appendFile: ["path", "text"],
      copy: ["src", "dest"],
      move: ["src", "dest"],
      deleteFile: ["path"],
      listDir: ["dir"],
      grep: ["pattern", "path"],
      removeTree: ["dir"],
    });
    for (const [name, tool] of Object.entries(tools)) {
      expect(toolInfo(tool)?.name).toBe(name);
      expect(toolInfo(tool)?.performs).toBeDefined();
    }
  });
});
