import * as fs from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import fc from "fast-check";
import { DirectoryPath, FilePath, record, type Occurrence } from "clauz3";
import { Event } from "clauz3/events";
import { check, type ContractSpec } from "clauz3/spec";
import * as fsc from "../../stdlib/filesystem/trusted/contracts";
import { grep, readFile } from "../../stdlib/filesystem/trusted/effects";
import {
  Delete,
  FsEvent,
  Read,
  RecursiveRead,
  RecursiveWrite,
  Write,
  WriteText,
} from "../../stdlib/filesystem/trusted/events";

const holds = (spec: ContractSpec, ...trace: Occurrence[]): boolean => check(spec, trace).length === 0;

describe("stdlib filesystem contracts", () => {
  describe("readOnly / noReads", () => {
    it("readOnly allows reads and forbids every kind of write", () => {
      const g = fsc.readOnly();
      expect(holds(g)).toBe(true);
      expect(holds(g, new Read("a"), new RecursiveRead("d"))).toBe(true);
      for (const e of [new Write("a"), new Delete("a"), new WriteText("a", "x"), new RecursiveWrite("d")]) {
        expect(holds(g, new Read("a"), e)).toBe(false);
      }
      expect(check(g, [new Write("a"), new Delete("b")])).toHaveLength(2);
    });

    it("noReads allows writes and forbids exact and recursive reads", () => {
      const g = fsc.noReads();
      expect(holds(g, new Write("a"), new RecursiveWrite("d"))).toBe(true);
      expect(holds(g, new Read("a"))).toBe(false);
      expect(holds(g, new RecursiveRead("d"))).toBe(false);
    });
  });

  describe("neverReadUnder / neverWriteUnder (legacy literal prefix)", () => {
    it("rejects an exact read starting with the prefix", () => {
      const g = fsc.neverReadUnder("/repo/PRECIOUS.md");
      expect(holds(g, new Read("/repo/README.md"))).toBe(true);
      expect(holds(g, new Read("/repo/PRECIOUS.md"))).toBe(false);
      expect(holds(g, new Read("/repo/PRECIOUS.md.bak"))).toBe(false);
      expect(holds(g, new Write("/repo/PRECIOUS.md"))).toBe(true); // a write is not a read
    });

    it("is literal for exact paths: another spelling is not caught", () => {
      expect(holds(fsc.neverReadUnder("secrets/"), new Read("./secrets/key"))).toBe(true);
    });

    it("treats a recursive read conservatively", () => {
      const g = fsc.neverReadUnder("data/secrets");
      const ok = ["public", "src/lib", "/abs/elsewhere", "data/public", "dat/secrets"];
      for (const dir of ok) expect([dir, holds(g, new RecursiveRead(dir))]).toEqual([dir, true]);
      const refused = [
        "data", // the tree contains the prefix
        "data/", // same
        "", // everything
        "data/secrets", // the prefix itself
        "data/secrets/deep", // inside the prefix
        "data/sec", // literal overlap: data/secrets... starts with data/sec
        ".", "./data", "..", "../repo/data", // no fixed spelling of the paths below
        "public/../data", "public/..", "public/./x", "public/.", "public//x", "public\\x",
      ];
      for (const dir of refused) expect([dir, holds(g, new RecursiveRead(dir))]).toEqual([dir, false]);
      expect(holds(g, new RecursiveWrite("data"))).toBe(true); // a recursive write is not a read
    });

    it("neverWriteUnder covers Write, Delete, WriteText and recursive writes", () => {
      const g = fsc.neverWriteUnder("out/keep");
      expect(holds(g, new Write("out/other"), new Read("out/keep/a"), new RecursiveRead("out"))).toBe(true);
      expect(holds(g, new Write("out/keep/a"))).toBe(false);
      expect(holds(g, new Delete("out/keep/a"))).toBe(false);
      expect(holds(g, new WriteText("out/keep", "x"))).toBe(false);
      expect(holds(g, new RecursiveWrite("out"))).toBe(false);
      expect(holds(g, new RecursiveWrite("out/keep/x"))).toBe(false);
      expect(holds(g, new RecursiveWrite("./elsewhere"))).toBe(false);
      expect(holds(g, new RecursiveWrite("tmp"))).toBe(true);
    });

    it("refuses every recursive read whose tree may contain a path starting with the prefix (property)", () => {
      const segment = fc.constantFrom("a", "b", "ab", "data", "x.md");
      const plainDir = fc.tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 3 })).map(
        ([abs, segs]) => (abs ? "/" : "") + segs.join("/"),
      );
      const anyDir = fc.oneof(
        plainDir,
        fc.tuple(plainDir, fc.constantFrom("/", "/..", "/.", "//a", "/../a", "/./a")).map(([d, s]) => d + s),
        fc.tuple(fc.constantFrom(".", "..", "./", "../", ""), fc.array(segment, { maxLength: 2 })).map(([p, s]) => p + s.join("/")),
      );
      fc.assert(
        fc.property(anyDir, fc.array(segment, { minLength: 1, maxLength: 3 }), anyDir, (dir, below, prefix) => {
          // A file the recursive read may read, spelled as the implementation or a caller would.
          const file = nodePath.posix.join(dir, ...below);
          const spelled = dir + "/" + below.join("/");
          const accepted = holds(fsc.neverReadUnder(prefix), new RecursiveRead(dir));
          if (file.startsWith(prefix) || spelled.startsWith(prefix)) expect(accepted).toBe(false);
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe("onlyReadUnder / onlyWriteUnder (legacy literal prefix)", () => {
    it("compares literal prefixes, so data/../x passes and data2/x passes onlyReadUnder('data')", () => {
      expect(holds(fsc.onlyReadUnder("data/"), new Read("data/x"))).toBe(true);
      expect(holds(fsc.onlyReadUnder("data/"), new Read("data/../x"))).toBe(true);
      expect(holds(fsc.onlyReadUnder("data/"), new Read("data2/x"))).toBe(false);
      expect(holds(fsc.onlyReadUnder("data"), new Read("data2/x"))).toBe(true);
      expect(holds(fsc.onlyReadUnder("data/"), new Read("other"))).toBe(false);
      expect(holds(fsc.onlyReadUnder("data/"), new Write("other"))).toBe(true);
    });

    it("accepts a recursive read only inside the prefix and without a .. segment", () => {
      const g = fsc.onlyReadUnder("data/");
      expect(holds(g, new RecursiveRead("data/sub"))).toBe(true);
      expect(holds(g, new RecursiveRead("data/.."))).toBe(false);
      expect(holds(g, new RecursiveRead("data/../etc"))).toBe(false);
      expect(holds(g, new RecursiveRead("data/a\\..\\..\\etc"))).toBe(false);
      expect(holds(g, new RecursiveRead("other"))).toBe(false);
    });

    it("onlyWriteUnder covers every write kind", () => {
      const g = fsc.onlyWriteUnder("out/");
      expect(holds(g, new Write("out/a"), new Delete("out/b"), new WriteText("out/c", "x"), new RecursiveWrite("out/d"))).toBe(true);
      expect(holds(g, new Delete("src/a"))).toBe(false);
      expect(holds(g, new WriteText("src/a", "x"))).toBe(false);
      expect(holds(g, new RecursiveWrite("src"))).toBe(false);
      expect(holds(g, new RecursiveWrite("out/.."))).toBe(false);
      expect(holds(g, new Read("src/a"), new RecursiveRead("/"))).toBe(true);
    });
  });

  describe("exact-file contracts", () => {
    it("onlyReadsFiles accepts exactly the listed files", () => {
      const g = fsc.onlyReadsFiles([FilePath("test.md"), FilePath("docs/a.md")]);
      expect(holds(g, new Read("test.md"), new Read("docs/a.md"), new Read("test.md"))).toBe(true);
      expect(holds(g, new Read("./test.md"))).toBe(false);
      expect(holds(g, new Read("docs"))).toBe(false);
      expect(holds(g, new Read("test.md.bak"))).toBe(false);
      expect(holds(g, new Write("other.md"))).toBe(true);
      expect(holds(fsc.onlyReadsFiles([]), new Read("test.md"))).toBe(false);
    });

    it("onlyReadsFiles rejects every recursive read, even of a listed path", () => {
      const g = fsc.onlyReadsFiles([FilePath("test.md"), FilePath("docs")]);
      expect(holds(g, new RecursiveRead("docs"))).toBe(false);
      expect(holds(g, new RecursiveRead("test.md"))).toBe(false);
      expect(holds(g, new RecursiveWrite("docs"))).toBe(true);
    });

    it("onlyWritesFiles accepts exactly the listed files for every write kind and rejects recursive writes", () => {
      const g = fsc.onlyWritesFiles([FilePath("output.bam")]);
      expect(holds(g, new Write("output.bam"), new WriteText("output.bam", "x"), new Delete("output.bam"))).toBe(true);
      expect(holds(g, new Read("input.bam"), new RecursiveRead("."))).toBe(true);
      expect(holds(g, new Write("output.bai"))).toBe(false);
      expect(holds(g, new Delete("input.bam"))).toBe(false);
      expect(holds(g, new WriteText("out/output.bam", "x"))).toBe(false);
      expect(holds(g, new RecursiveWrite("output.bam"))).toBe(false);
    });
  });

  describe("resolved containment: onlyReadsFilesUnder / onlyWritesFilesUnder", () => {
    const inside = ["data/x", "data/sub/x.md", "data/./x", "data//x", "data/..x", "data/x..", "data/.hidden"];
    const outside = [
      "data", "data/", "data2/x", "data/../x", "data/..", "data/x/..", "data/x/../y", "data/.", "data/x/",
      "./data/x", "/data/x", "x/data/y", "dat", "data\\x", "data/..\\x", "",
    ];

    it.each(inside)("DirectoryPath('data') covers %j", (path) => {
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("data")), new Read(path))).toBe(true);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("data/")), new Read(path))).toBe(true);
      expect(holds(fsc.onlyWritesFilesUnder(DirectoryPath("data")), new Write(path))).toBe(true);
    });

    it.each(outside)("DirectoryPath('data') does not cover %j", (path) => {
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("data")), new Read(path))).toBe(false);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("data/")), new Read(path))).toBe(false);
      expect(holds(fsc.onlyWritesFilesUnder(DirectoryPath("data")), new Write(path))).toBe(false);
      expect(holds(fsc.onlyWritesFilesUnder(DirectoryPath("data")), new Delete(path))).toBe(false);
      expect(holds(fsc.onlyWritesFilesUnder(DirectoryPath("data")), new WriteText(path, "t"))).toBe(false);
    });

    it("covers nothing for the empty directory; '/' covers absolute paths; '..' covers its own tree", () => {
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("")), new Read("/etc/passwd"))).toBe(false);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("")), new Read("x"))).toBe(false);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("/")), new Read("/etc/passwd"))).toBe(true);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("/")), new Read("etc/passwd"))).toBe(false);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("../shared")), new Read("../shared/a"))).toBe(true);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("../shared")), new Read("../shared/../a"))).toBe(false);
    });

    it("accepts a recursive read of the directory itself or a tree inside it, nothing else", () => {
      const g = fsc.onlyReadsFilesUnder(DirectoryPath("data"));
      for (const dir of ["data", "data/", "data/sub", "data/sub/", "data/."]) {
        expect([dir, holds(g, new RecursiveRead(dir))]).toEqual([dir, true]);
      }
      for (const dir of ["data2", "dat", ".", "", "data/..", "data/../x", "data/sub/..", "./data", "/data", "data\\sub"]) {
        expect([dir, holds(g, new RecursiveRead(dir))]).toEqual([dir, false]);
      }
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("data/")), new RecursiveRead("data"))).toBe(true);
      expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath("")), new RecursiveRead(""))).toBe(false);
    });

    it("onlyWritesFilesUnder applies the same rule to recursive writes and ignores reads", () => {
      const g = fsc.onlyWritesFilesUnder(DirectoryPath("out"));
      expect(holds(g, new RecursiveWrite("out/tmp"), new RecursiveWrite("out"))).toBe(true);
      expect(holds(g, new RecursiveWrite("out/.."))).toBe(false);
      expect(holds(g, new RecursiveWrite("out2"))).toBe(false);
      expect(holds(g, new Read("/etc/passwd"), new RecursiveRead("/"))).toBe(true);
    });

    it("never accepts a path that resolves outside the directory (property)", () => {
      const segment = fc.constantFrom("data", "data2", "x", "..", ".", "", "a\\..", "...");
      const path = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => s.join("/"));
      const dir = fc.constantFrom("data", "data/", "data/x", "..", "../data", "/", "/data");
      fc.assert(
        fc.property(dir, path, (d, p) => {
          const resolvedDir = nodePath.posix.resolve("/cwd", d);
          const resolvedFile = nodePath.posix.resolve("/cwd", p);
          const inside = resolvedFile.startsWith(resolvedDir === "/" ? "/" : resolvedDir + "/");
          if (holds(fsc.onlyReadsFilesUnder(DirectoryPath(d)), new Read(p))) {
            expect(inside).toBe(true);
            expect(p.includes("\\")).toBe(false);
          }
          if (holds(fsc.onlyReadsFilesUnder(DirectoryPath(d)), new RecursiveRead(p))) {
            expect(inside || resolvedFile === resolvedDir).toBe(true);
          }
        }),
        { numRuns: 3000 },
      );
    });

    it("accepts every plain path below the directory (property)", () => {
      const segment = fc.stringMatching(/^[a-z0-9_.-]{1,6}$/).filter((s) => s !== "." && s !== "..");
      fc.assert(
        fc.property(fc.constantFrom("data", "data/", "/srv/data", ".."), fc.array(segment, { minLength: 1, maxLength: 4 }), (d, segs) => {
          const p = (d.endsWith("/") ? d : d + "/") + segs.join("/");
          expect(holds(fsc.onlyReadsFilesUnder(DirectoryPath(d)), new Read(p))).toBe(true);
          expect(holds(fsc.onlyWritesFilesUnder(DirectoryPath(d)), new WriteText(p, "x"))).toBe(true);
        }),
      );
    });
  });

  describe("writesAtMost", () => {
    it("counts every write event with multiplicity", () => {
      expect(holds(fsc.writesAtMost(2), new Write("a"), new WriteText("a", "x"), new Read("b"))).toBe(true);
      // A move performs Delete(src) and Write(dest): two writes.
      expect(holds(fsc.writesAtMost(2), new Read("a"), new Delete("a"), new Write("b"), new Write("c"))).toBe(false);
      expect(holds(fsc.writesAtMost(0))).toBe(true);
      expect(holds(fsc.writesAtMost(0), new Delete("a"))).toBe(false);
    });

    it("rejects any recursive write", () => {
      expect(holds(fsc.writesAtMost(100), new RecursiveWrite("out"))).toBe(false);
      expect(holds(fsc.writesAtMost(0), new RecursiveRead("out"))).toBe(true);
    });
  });

  describe("onlyPattern (over grep's own argument)", () => {
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(nodePath.join(os.tmpdir(), "clauz3-grep-"));
      fs.writeFileSync(nodePath.join(root, "a.txt"), "TODO one\nFIXME two\n");
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it("accepts grep calls with exactly the pattern and ignores other tools", () => {
      const { trace } = record(() => {
        grep("TODO", root);
        readFile(nodePath.join(root, "a.txt"));
        grep("TODO", nodePath.join(root, "a.txt"));
      });
      expect(check(fsc.onlyPattern("TODO"), trace)).toEqual([]);
      expect(check(fsc.onlyPattern("TOD"), trace)).toHaveLength(2);
    });

    it("rejects a grep call with another pattern", () => {
      const { trace } = record(() => {
        grep("TODO", root);
        grep("FIXME", root);
      });
      const violations = check(fsc.onlyPattern("TODO"), trace);
      expect(violations).toHaveLength(1);
      expect(violations[0]!.message).toContain('pattern="FIXME"');
    });
  });

  describe("contracts on real runs", () => {
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(nodePath.join(os.tmpdir(), "clauz3-run-"));
      fs.mkdirSync(nodePath.join(root, "data"));
      fs.writeFileSync(nodePath.join(root, "data", "a.txt"), "a");
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it("grep over a directory breaks an exact-file contract but keeps a containment contract", () => {
      const data = nodePath.join(root, "data");
      const { trace } = record(() => grep("a", data));
      expect(check(fsc.onlyReadsFiles([FilePath(nodePath.join(data, "a.txt"))]), trace)).toHaveLength(1);
      expect(check(fsc.onlyReadsFilesUnder(DirectoryPath(data)), trace)).toEqual([]);
      expect(check(fsc.onlyReadsFilesUnder(DirectoryPath(data + "2")), trace)).toHaveLength(1);
      expect(check(fsc.neverReadUnder(nodePath.join(data, "a.txt")), trace)).toHaveLength(1);
    });
  });

  describe("descriptions", () => {
    const CONTRACT = Symbol.for("clauz3.contract");
    const all = Object.entries(fsc) as [string, (...args: never[]) => unknown][];

    it("every export is a contract with a description naming each parameter", () => {
      expect(all.map(([name]) => name).sort()).toEqual([
        "neverReadUnder", "neverWriteUnder", "noReads", "onlyPattern", "onlyReadUnder", "onlyReadsFiles",
        "onlyReadsFilesUnder", "onlyWriteUnder", "onlyWritesFiles", "onlyWritesFilesUnder", "readOnly", "writesAtMost",
      ]);
      for (const [name, c] of all) {
        const info = (c as unknown as Record<symbol, { description?: string; body: Function }>)[CONTRACT];
        expect(info, name).toBeDefined();
        const template = info!.description!;
        const params = /^\(([^)]*)\)/.exec(Function.prototype.toString.call(info!.body))![1]!
          .split(",").map((p) => p.trim()).filter(Boolean);
        const placeholders = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
        expect([name, [...placeholders].sort()]).toEqual([name, [...params].sort()]);
      }
    });

    it("renders sentences with JSON-quoted literal arguments", () => {
      expect(fsc.neverReadUnder("/repo/PRECIOUS.md").description).toBe(
        'No filesystem tool reads a path starting with "/repo/PRECIOUS.md".',
      );
      expect(fsc.onlyReadsFiles([FilePath("test.md")]).description).toBe(
        'Filesystem tools read only the files ["test.md"], and list or search no directory.',
      );
      expect(fsc.onlyWritesFilesUnder(DirectoryPath("out")).description).toBe(
        'Filesystem tools write, move or delete only files inside the directory "out".',
      );
      expect(fsc.writesAtMost(3).description).toBe(
        "Filesystem tools perform at most 3 file writes (a move counts as two) and write no whole directory.",
      );
      expect(fsc.readOnly().description).toBe("No filesystem tool creates, changes, moves or deletes any file.");
    });
  });

  it("identity by declaration: an event merely named Read is not constrained", () => {
    const Foreign = (() => {
      class Read extends Event {
        constructor(readonly path: string) { super(); }
      }
      return Read;
    })();
    expect(holds(fsc.noReads(), new Foreign("secret"))).toBe(true);
    expect(holds(fsc.noReads(), new Read("secret"))).toBe(false);
    // An FsEvent that is neither a Read nor a Write is constrained by neither family.
    expect(holds(fsc.readOnly(), new FsEvent("x"))).toBe(true);
    expect(holds(fsc.noReads(), new FsEvent("x"))).toBe(true);
  });
});
