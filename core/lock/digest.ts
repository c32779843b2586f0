/**
 * The digest a lock pins: SHA-256 of a trusted file's bytes on disk. What is verified is the text
 * the program was built from, so the bytes count only when they decode to that text (TypeScript's
 * own decoding: a UTF-8 or UTF-16 byte-order mark, else UTF-8). An editor buffer that differs from
 * the disk, or a file that exists only in memory (tests), is digested as its text in UTF-8: pinned
 * only if those very bytes were pinned.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import type * as TS from "typescript";

const digests = new WeakMap<TS.SourceFile, string>();

/** SHA-256 (hex) of bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** Bytes as TypeScript's `sys.readFile` decodes them. */
export function decodeSource(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    for (let i = 0; i + 1 < swapped.length; i += 2) [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    return swapped.toString("utf16le");
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString("utf16le", 2);
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.toString("utf8", 3);
  return bytes.toString("utf8");
}

/** The digest of the text a program holds for `file` (see above); computed once per source file object. */
export function pinDigest(file: TS.SourceFile): string {
  let digest = digests.get(file);
  if (digest === undefined) {
    let bytes: Buffer | undefined;
    try {
      bytes = fs.readFileSync(file.fileName);
    } catch {
      bytes = undefined;
    }
    digest = bytes !== undefined && decodeSource(bytes) === file.text ? sha256Hex(bytes) : sha256Hex(Buffer.from(file.text, "utf8"));
    digests.set(file, digest);
  }
  return digest;
}
