/**
 * The catalog and describe for tools of one object of named arguments (issue 10): the object's
 * properties are the effect's slots, exactly as a positional tool's parameters are, and a contract
 * over `effect(tool)` names them as fields.
 */
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildCatalog, instanceSchema, linkmlSchema } from "../../core/catalog";
import { describeProgram } from "../../core/describe";
import { readLayer } from "../../core/layer/read";
import { createAjv, defaultReadBytes, librariesOf, type ReadBytes } from "../../core/manifest";
import { createProgram, PROJECT, stdlibFiles } from "../helpers/program";

const LAYER = `import { trusted, requires } from "clauz3";
import { Event, performs } from "clauz3/events";
import { contract, effect, type ContractSpec } from "clauz3/spec";
export class SendEmail extends Event { constructor(readonly to: string, readonly subject: string) { super(); } }
export interface Message { to: string; subject: string; cc: string[] }
/** Send a message (named arguments). */
export const send = trusted(performs(({ to, subject }) => new SendEmail(to, subject)), requires(({ to }) => to.includes("@")), function send(msg: Message): void {});
/** Send a message (positional). */
export const sendPositional = trusted(performs((to: string, subject: string) => new SendEmail(to, subject)), function sendPositional(to: string, subject: string, cc: string[]): void {});
/** Nobody copied is the address. */
export const neverCc = contract({ description: "Never copy {addr}." }, (addr: string): ContractSpec => effect<{ cc: string[] }>(send).all((c) => !c.cc.includes(addr)));
`;
const MANIFEST = `{ "title": "Mail", "summary": "Send mail." }\n`;
const PLAN = `import { send } from "./tools/mail/trusted/layer";
import * as mail from "./tools/mail/trusted/layer";
export const guarantees = [mail.neverCc("ceo@corp")];
export function main(to: string): void {
  if (to.includes("@")) send({ to, subject: "hi", cc: [] });
}
`;

function setup() {
  const files: Record<string, string> = { ...stdlibFiles(), "tools/mail/trusted/layer.ts": LAYER, "tools/mail/clauz3.json": MANIFEST, "plan.ts": PLAN };
  const program = createProgram(files);
  const layer = readLayer(ts, program);
  const readBytes: ReadBytes = (f) => {
    const rel = path.posix.relative(PROJECT, f);
    return rel in files ? Buffer.from(files[rel]!, "utf8") : f.startsWith(`${PROJECT}/`) ? undefined : defaultReadBytes(f);
  };
  const libraries = librariesOf(layer.model, readBytes).filter((l) => l.id === "mail");
  return { program, layer, readBytes, catalog: buildCatalog(ts, program, layer.model, libraries, readBytes) };
}

describe("catalog and describe of tools of named arguments", () => {
  const { program, layer, readBytes, catalog } = setup();
  const schema = linkmlSchema(catalog) as Record<string, any>;

  it("reads the layer without findings", () => {
    expect(layer.findings.filter((f) => f.file.fileName.includes("tools/mail")).map((f) => f.message)).toEqual([]);
  });

  it("gives the object's properties as the effect's slots, exactly as a positional tool's parameters", () => {
    const named = schema.classes.MailSend;
    const positional = schema.classes.MailSendPositional;
    expect(Object.keys(named.attributes)).toEqual(["to", "subject", "cc"]);
    expect(named.attributes).toEqual(positional.attributes);
    expect(named.attributes.cc).toMatchObject({ range: "string", multivalued: true, required: true, rank: 3, annotations: { parameter_kind: "required", typescript_type: "string[]" } });
    expect(named.annotations).toMatchObject({ clauz3_kind: "effect", performs: "SendEmail(to, subject)", returns: "void" });
    expect(named.annotations.performs).toBe(positional.annotations.performs);
  });

  it("describes a guarantee over the tool's named fields, and its instance validates against the catalog", () => {
    const d = describeProgram({ ts, program, layer: layer.model, file: program.getSourceFile(`${PROJECT}/plan.ts`)!, readBytes });
    expect(d.guarantees).toHaveLength(1);
    const g = d.guarantees[0]!;
    expect(g.sentence).toBe(`Never copy "ceo@corp".`);
    const validate = createAjv().compile(instanceSchema(catalog));
    expect(validate(g.instance), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ contract: "mail.send", arguments: { to: "a@b", subject: "s", cc: [] } })).toBe(false);
  });
});
