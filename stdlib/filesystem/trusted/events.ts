/**
 * Events of the filesystem library.
 *
 * Two separate hierarchies:
 *
 *     FsEvent(path)              one exact path
 *       Read                     the file at path is read
 *       Write                    the file at path is changed (created, overwritten, appended, removed)
 *         Delete                 the file at path is removed
 *         WriteText(path, text)  text is written to the file at path
 *     RecursiveFsEvent(dir)      the whole tree rooted at dir (dir itself, or a single file)
 *       RecursiveRead            every file of the tree may be read
 *       RecursiveWrite           every file of the tree may be changed or removed
 *
 * Recursive events are deliberately not `Read`/`Write` subclasses: a contract written over `Read`
 * (for example "only these exact files are read") would otherwise accept `RecursiveRead("data")`
 * as if `data` were one file. Every contract in `./contracts` constrains both hierarchies; a
 * contract of another library that constrains `Read` must also say what it allows of
 * `RecursiveRead` (usually `RecursiveRead.empty()`), or it does not cover directory-wide tools.
 */
import { Event } from "clauz3/events";

/** An access to one exact path. */
export class FsEvent extends Event {
  constructor(readonly path: string) { super(); }
}

/** The file at `path` is read. */
export class Read extends FsEvent {}

/** The file at `path` is changed: created, overwritten, appended to, moved onto or removed. */
export class Write extends FsEvent {}

/** The file at `path` is removed (a `Write`: contracts over `Write` cover it). */
export class Delete extends Write {}

/** `text` is written (or appended) to the file at `path`; for content policies. */
export class WriteText extends Write {
  constructor(path: string, readonly text: string) { super(path); }
}

/**
 * An access to the whole tree rooted at `dir`: every file below it, at any depth. One event stands
 * for any number of physical files and system calls.
 */
export class RecursiveFsEvent extends Event {
  constructor(readonly dir: string) { super(); }
}

/** Any file of the tree rooted at `dir` may be read (listing, searching). */
export class RecursiveRead extends RecursiveFsEvent {}

/** Any file of the tree rooted at `dir` may be changed or removed. */
export class RecursiveWrite extends RecursiveFsEvent {}
