/** The layer rules accept async tools and apply every rule to them as to synchronous ones (issue 10). */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readLayer } from "../../core/layer/read";
import { createProgram, stdlibFiles } from "../helpers/program";

function read(code: string) {
  const program = createProgram({ ...stdlibFiles(), "tools/demo/trusted/layer.ts": code });
  const layer = readLayer(ts, program);
  const mine = layer.findings.filter((f) => f.file.fileName.includes("/tools/demo/"));
  const tools = [...layer.model.tools.values()].filter((t) => t.fileName.includes("/tools/demo/"));
  return { messages: mine.map((f) => f.message), tools };
}

const HEAD = `import { trusted, requires, ensures } from "clauz3";
import { Event, performs } from "clauz3/events";
export class Fetch extends Event { constructor(readonly url: string) { super(); } }
`;

describe("async tools in the layer", () => {
  it("are accepted; the result is the resolved type and ensures is about it", () => {
    const { messages, tools } = read(HEAD + `export const fetchPage = trusted(performs((url: string) => new Fetch(url)), requires((url: string) => url.startsWith("https://")), ensures((page: string) => page.length > 0), async function fetchPage(url: string): Promise<string> { return "x"; });
export const count = trusted(function count(url: string): Promise<number> { return Promise.resolve(1); });
export const plain = trusted(function plain(url: string): string { return url; });
`);
    expect(messages).toEqual([]);
    expect(tools.map((t) => [t.name, t.async, t.returnType])).toEqual([
      ["fetchPage", true, { kind: "string" }],
      ["count", true, { kind: "number" }],
      ["plain", false, { kind: "string" }],
    ]);
  });

  it("an ensures result typed as the promise, not the resolved value, is reported", () => {
    const { messages } = read(HEAD + `export const fetchPage = trusted(ensures((page: Promise<string>) => true), async function fetchPage(url: string): Promise<string> { return "x"; });
`);
    expect(messages.join("\n")).toMatch(/result parameter has type `Promise<string>` but tool parameter `\(result\)` of `fetchPage` is `string`/);
  });

  it("parameter rules apply to async tools: optional and defaulted parameters are reported", () => {
    const { messages } = read(HEAD + `export const a = trusted(performs((url: string) => new Fetch(url)), async function a(url?: string): Promise<void> {});
export const b = trusted(async function b(url: string = "x"): Promise<void> {});
`);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/is optional/);
    expect(messages[1]).toMatch(/has a default value/);
  });

  it("event fields must come from parameters in async tools too", () => {
    const { messages } = read(HEAD + `export const a = trusted(performs(() => new Fetch("https://x")), async function a(url: string): Promise<void> {});
`);
    expect(messages.join("\n")).toMatch(/the literal `"https:\/\/x"`/);
  });
});
