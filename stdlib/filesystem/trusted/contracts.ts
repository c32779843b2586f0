/**
 * Contracts of the filesystem library. Every read contract constrains both `Read` (exact paths)
 * and `RecursiveRead` (whole trees); every write contract constrains both `Write` (which covers
 * `Delete` and `WriteText`) and `RecursiveWrite`.
 *
 * Two families of path rules:
 * - legacy literal prefixes (`neverReadUnder`, `neverWriteUnder`, `onlyReadUnder`, `onlyWriteUnder`):
 *   `path.startsWith(prefix)` on the path text, nothing resolved;
 * - resolved containment (`onlyReadsFilesUnder`, `onlyWritesFilesUnder`): a path is under a
 *   directory only when no `..` segment can take it back out; see those contracts.
 */
import type { DirectoryPath, FilePath } from "clauz3";
import { allOf, contract, effect, type ContractSpec } from "clauz3/spec";
import { grepAsync } from "./async.js";
import { grep } from "./effects.js";
import { Read, RecursiveRead, RecursiveWrite, Write } from "./events.js";

/**
 * The program changes no file.
 *
 * Forbids every `Write` (including `Delete` and `WriteText`: writing, appending, copying onto,
 * moving, deleting) and every `RecursiveWrite`.
 */
export const readOnly = contract(
  { description: "No filesystem tool creates, changes, moves or deletes any file." },
  (): ContractSpec => allOf(Write.empty(), RecursiveWrite.empty()),
);

/**
 * The program reads no file.
 *
 * Forbids every `Read` (reading, copying from, moving) and every `RecursiveRead` (listing,
 * searching).
 */
export const noReads = contract(
  { description: "No filesystem tool reads, lists or searches any file." },
  (): ContractSpec => allOf(Read.empty(), RecursiveRead.empty()),
);

/**
 * No read path starts with prefix (a literal text prefix).
 *
 * Legacy literal rule: `Read(path)` breaks it when `path.startsWith(prefix)`; paths are not
 * resolved, so `./secret` or an absolute spelling of a relative path is not caught.
 *
 * A `RecursiveRead(dir)` is treated conservatively: it breaks the contract when `dir` starts with
 * `prefix`, when `prefix` starts with `dir` (the tree may contain the prefix), or when `dir` is not
 * in plain form (`.`, `..`, a leading `./` or `../`, a `/./` or `/../` or `//` inside, a trailing
 * `/.` or `/..`, or a backslash), because the paths below such a directory have no fixed spelling.
 */
export const neverReadUnder = contract(
  { description: "No filesystem tool reads a path starting with {prefix}." },
  (prefix: string): ContractSpec =>
    allOf(
      Read.all((e) => !e.path.startsWith(prefix)),
      RecursiveRead.all(
        (e) =>
          !e.dir.startsWith(prefix) &&
          !prefix.startsWith(e.dir) &&
          e.dir !== "." &&
          e.dir !== ".." &&
          !e.dir.startsWith("./") &&
          !e.dir.startsWith("../") &&
          !e.dir.includes("/./") &&
          !e.dir.includes("/../") &&
          !e.dir.includes("//") &&
          !e.dir.endsWith("/.") &&
          !e.dir.endsWith("/..") &&
          !e.dir.includes("\\"),
      ),
    ),
);

/**
 * No written path starts with prefix (a literal text prefix).
 *
 * Legacy literal rule: `Write(path)` (including `Delete` and `WriteText`) breaks it when
 * `path.startsWith(prefix)`; paths are not resolved.
 *
 * A `RecursiveWrite(dir)` is treated conservatively, exactly as `neverReadUnder` treats a
 * `RecursiveRead(dir)`: it breaks the contract when `dir` starts with `prefix`, when `prefix`
 * starts with `dir`, or when `dir` is not in plain form.
 */
export const neverWriteUnder = contract(
  { description: "No filesystem tool writes, moves or deletes a path starting with {prefix}." },
  (prefix: string): ContractSpec =>
    allOf(
      Write.all((e) => !e.path.startsWith(prefix)),
      RecursiveWrite.all(
        (e) =>
          !e.dir.startsWith(prefix) &&
          !prefix.startsWith(e.dir) &&
          e.dir !== "." &&
          e.dir !== ".." &&
          !e.dir.startsWith("./") &&
          !e.dir.startsWith("../") &&
          !e.dir.includes("/./") &&
          !e.dir.includes("/../") &&
          !e.dir.includes("//") &&
          !e.dir.endsWith("/.") &&
          !e.dir.endsWith("/..") &&
          !e.dir.includes("\\"),
      ),
    ),
);

/**
 * Every read path starts with prefix (legacy literal prefix).
 *
 * Legacy literal rule: `Read(path)` keeps it when `path.startsWith(prefix)`, so `data/../secret`
 * keeps `onlyReadUnder("data/")`, and `data2/x` keeps `onlyReadUnder("data")`. Prefer
 * `onlyReadsFilesUnder`, which resolves containment.
 *
 * A `RecursiveRead(dir)` keeps it only when `dir` starts with `prefix` and has no `..` segment after
 * its first character (`/../` inside or a trailing `/..`) and no backslash.
 */
export const onlyReadUnder = contract(
  { description: "Every path a filesystem tool reads starts with {prefix}." },
  (prefix: string): ContractSpec =>
    allOf(
      Read.all((e) => e.path.startsWith(prefix)),
      RecursiveRead.all(
        (e) => e.dir.startsWith(prefix) && !e.dir.includes("/../") && !e.dir.endsWith("/..") && !e.dir.includes("\\"),
      ),
    ),
);

/**
 * Every written path starts with prefix (legacy literal prefix).
 *
 * Legacy literal rule: `Write(path)` (including `Delete` and `WriteText`) keeps it when
 * `path.startsWith(prefix)`; nothing is resolved. Prefer `onlyWritesFilesUnder`.
 *
 * A `RecursiveWrite(dir)` keeps it only when `dir` starts with `prefix` and has no `..` segment
 * after its first character and no backslash.
 */
export const onlyWriteUnder = contract(
  { description: "Every path a filesystem tool writes, moves or deletes starts with {prefix}." },
  (prefix: string): ContractSpec =>
    allOf(
      Write.all((e) => e.path.startsWith(prefix)),
      RecursiveWrite.all(
        (e) => e.dir.startsWith(prefix) && !e.dir.includes("/../") && !e.dir.endsWith("/..") && !e.dir.includes("\\"),
      ),
    ),
);

/**
 * Only the listed files are read, each named exactly.
 *
 * `Read(path)` keeps it when `path` is one of `files`, compared as text (`./a.md` is not `a.md`).
 * Exact-file contract: every `RecursiveRead` breaks it (listing or searching a tree is not
 * reading a listed file), even a recursive read of a listed path.
 */
export const onlyReadsFiles = contract(
  { description: "Filesystem tools read only the files {files}, and list or search no directory." },
  (files: FilePath[]): ContractSpec =>
    allOf(Read.all((e) => files.includes(e.path as FilePath)), RecursiveRead.empty()),
);

/**
 * Every read file lies inside the directory dir (resolved containment, without symbolic links).
 *
 * With `base` = `dir` when it ends in `/`, else `dir + "/"`: `Read(path)` keeps it when `dir` is
 * not empty, `path` starts with `base`, and `path` has no `/../` inside, does not end in `/..`,
 * `/.` or `/`, and has no backslash. So `data` covers `data/x` and `data/./x`, but not `data`,
 * `data2/x`, `data/../x` or `data/x/..`. Text comparison: `./data/x` and an absolute spelling
 * are not covered (refused, never wrongly accepted); symbolic links are not resolved.
 *
 * A `RecursiveRead(root)` keeps it when `root` is `dir` itself (with or without a trailing `/`)
 * or starts with `base`, and has no `/../` inside, no trailing `/..` and no backslash.
 */
export const onlyReadsFilesUnder = contract(
  { description: "Filesystem tools read only files inside the directory {dir}." },
  (dir: DirectoryPath): ContractSpec => {
    const base = dir.endsWith("/") ? dir : dir + "/";
    return allOf(
      Read.all(
        (e) =>
          dir.length > 0 &&
          e.path.startsWith(base) &&
          !e.path.includes("/../") &&
          !e.path.endsWith("/..") &&
          !e.path.endsWith("/.") &&
          !e.path.endsWith("/") &&
          !e.path.includes("\\"),
      ),
      RecursiveRead.all(
        (e) =>
          dir.length > 0 &&
          (e.dir + "/" === base || e.dir.startsWith(base)) &&
          !e.dir.includes("/../") &&
          !e.dir.endsWith("/..") &&
          !e.dir.includes("\\"),
      ),
    );
  },
);

/**
 * Only the listed files are written, each named exactly.
 *
 * `Write(path)` (including `Delete` and `WriteText`) keeps it when `path` is one of `files`,
 * compared as text. Exact-file contract: every `RecursiveWrite` breaks it.
 */
export const onlyWritesFiles = contract(
  { description: "Filesystem tools write, move or delete only the files {files}, and no whole directory." },
  (files: FilePath[]): ContractSpec =>
    allOf(Write.all((e) => files.includes(e.path as FilePath)), RecursiveWrite.empty()),
);

/**
 * Every written file lies inside the directory dir (resolved containment, without symbolic links).
 *
 * The rule of `onlyReadsFilesUnder`, over `Write(path)` (including `Delete` and `WriteText`) and
 * `RecursiveWrite(root)`: `data` covers `data/x`, not `data2/x`, `data/../x` or `data` itself.
 */
export const onlyWritesFilesUnder = contract(
  { description: "Filesystem tools write, move or delete only files inside the directory {dir}." },
  (dir: DirectoryPath): ContractSpec => {
    const base = dir.endsWith("/") ? dir : dir + "/";
    return allOf(
      Write.all(
        (e) =>
          dir.length > 0 &&
          e.path.startsWith(base) &&
          !e.path.includes("/../") &&
          !e.path.endsWith("/..") &&
          !e.path.endsWith("/.") &&
          !e.path.endsWith("/") &&
          !e.path.includes("\\"),
      ),
      RecursiveWrite.all(
        (e) =>
          dir.length > 0 &&
          (e.dir + "/" === base || e.dir.startsWith(base)) &&
          !e.dir.includes("/../") &&
          !e.dir.endsWith("/..") &&
          !e.dir.includes("\\"),
      ),
    );
  },
);

/**
 * At most n file writes are performed.
 *
 * Counts `Write` events with multiplicity (writing one file twice counts twice; a move counts
 * twice: the removed source and the written destination). A `RecursiveWrite` changes an unknown
 * number of files, so any recursive write breaks it.
 */
export const writesAtMost = contract(
  { description: "Filesystem tools perform at most {n} file writes (a move counts as two) and write no whole directory." },
  (n: number): ContractSpec => allOf(Write.count().atMost(n), RecursiveWrite.empty()),
);

/**
 * grep is only called with the search text pattern.
 *
 * Constrains the own `pattern` argument of `grep` and `grepAsync` (no event carries it), compared
 * exactly. Says nothing about which files are searched: combine with a read contract for that.
 */
export const onlyPattern = contract(
  { description: "grep searches only for the text {pattern}." },
  (pattern: string): ContractSpec => allOf(effect(grep).all((c) => c.pattern === pattern), effect(grepAsync).all((c) => c.pattern === pattern)),
);
