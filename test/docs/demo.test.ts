/**
 * `npm run demo` is one of the README's two commands: every section of it must behave as it says
 * (the real binaries on the fixture projects). A change of the CLI's output once broke it silently.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
// @ts-expect-error: the demo is plain JavaScript (demo/run.mjs), without declarations.
import { makeIo, SECTIONS } from "../../demo/run.mjs";

type Io = { cleanup: () => void };
type Section = ((io: Io) => Promise<boolean>) & { name: string };

describe("npm run demo", () => {
  it.each((SECTIONS as Section[]).map((section) => [section.name, section] as const))("section %s behaves as expected", async (_name, section) => {
    let text = "";
    const stdout = new Writable({ write: (chunk, _encoding, done) => { text += String(chunk); done(); } });
    const io = makeIo({ stdout, color: false }) as Io;
    try {
      expect(await section(io), text).toBe(true);
    } finally {
      io.cleanup();
    }
  });
});
