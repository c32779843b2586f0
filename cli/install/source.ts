/**
 * What `clauz3 install <source>` names: `stdlib:<name>` (a library of clauz3's standard library),
 * a git URL with an optional `@<ref>`, or a folder holding `tools/<domain>/`. Parsing only: nothing
 * is read here.
 */

export type InstallSource =
  | { readonly kind: "stdlib"; readonly name: string; readonly text: string }
  | { readonly kind: "git"; readonly url: string; readonly ref: string | undefined; readonly text: string }
  | { readonly kind: "folder"; readonly path: string; readonly text: string };

/** A source, a copy or a check that cannot go on: the message names the file or the argument. */
export class InstallError extends Error {
  constructor(
    message: string,
    /** 1 when the copied library breaks layer rules (a finding), 2 for usage and configuration errors. */
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
    this.name = "InstallError";
  }
}

/** A library or domain name: one path segment a folder can be named. */
export const DOMAIN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** URL forms git clones from; `ext::` and other transport helpers that run commands are not among them. */
const GIT_URL = /^(?:(?:git\+)?(?:https?|ssh|git|file):\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/;

/** Parse the argument of `clauz3 install`; throws `InstallError` naming what is wrong. */
export function parseSource(text: string): InstallSource {
  if (text.trim() === "" || /[\u0000-\u001f\u007f]/.test(text)) {
    throw new InstallError(`clauz3 install: the source ${JSON.stringify(text)} is empty or holds a control character; write stdlib:<name>, a folder or a git URL.`);
  }
  if (text.startsWith("stdlib:")) {
    const name = text.slice("stdlib:".length);
    if (!DOMAIN.test(name)) throw new InstallError(`clauz3 install: ${JSON.stringify(name)} is not a standard library name (write stdlib:filesystem, say).`);
    return { kind: "stdlib", name, text };
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(text)) {
    throw new InstallError(`clauz3 install: ${text} uses a git transport helper (\`<helper>::\`), which runs a program; write an https://, ssh://, git:// or file:// URL.`);
  }
  if (GIT_URL.test(text) || /\.git(@[^/]*)?$/.test(text)) {
    // The ref follows the last `@` after the last `/` (so `git@host:` is part of the URL).
    const lastSlash = Math.max(text.lastIndexOf("/"), text.indexOf(":"));
    const at = text.lastIndexOf("@");
    const hasRef = at > lastSlash;
    const url = (hasRef ? text.slice(0, at) : text).replace(/^git\+/, "");
    const ref = hasRef ? text.slice(at + 1) : undefined;
    if (ref !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(ref)) {
      throw new InstallError(`clauz3 install: ${JSON.stringify(ref)} after @ is not a branch, tag or commit name.`);
    }
    if (url.startsWith("-")) throw new InstallError(`clauz3 install: ${url} is not a git URL.`);
    return { kind: "git", url, ref, text };
  }
  return { kind: "folder", path: text, text };
}
