/**
 * The gate's reading of `module`/`moduleResolution` is TypeScript's own: for every combination of
 * `target`, `module` and `moduleResolution` (set or not), `effectiveModuleSettings` gives what
 * TypeScript's internal `getEmitModuleKind`/`getEmitModuleResolutionKind` give (the gate cannot
 * call those: they are not TypeScript's public API).
 */
import ts from "typescript";
import { effectiveModuleSettings } from "../../core/gate/module-settings";

const internal = ts as unknown as {
  getEmitModuleKind(o: ts.CompilerOptions): ts.ModuleKind;
  getEmitModuleResolutionKind(o: ts.CompilerOptions): ts.ModuleResolutionKind;
};

const numeric = <T extends object>(e: T): number[] => Object.values(e).filter((v): v is number => typeof v === "number");
const targets = [undefined, ts.ScriptTarget.ES5, ts.ScriptTarget.ES2015, ts.ScriptTarget.ES2022, ts.ScriptTarget.ESNext];
const modules = [undefined, ...new Set(numeric(ts.ModuleKind))];
const resolutions = [undefined, ...new Set(numeric(ts.ModuleResolutionKind))];

it("agrees with TypeScript on every combination", () => {
  let compared = 0;
  for (const target of targets) {
    for (const module of modules) {
      for (const moduleResolution of resolutions) {
        const options: ts.CompilerOptions = { target, module, moduleResolution };
        expect(effectiveModuleSettings(ts, options), JSON.stringify(options)).toEqual({
          module: internal.getEmitModuleKind(options),
          resolution: internal.getEmitModuleResolutionKind(options),
        });
        compared++;
      }
    }
  }
  expect(compared).toBeGreaterThan(300);
});

it("reads an unset moduleResolution as TypeScript does: classic for es2015…esnext", () => {
  expect(effectiveModuleSettings(ts, { module: ts.ModuleKind.ESNext }).resolution).toBe(ts.ModuleResolutionKind.Classic);
  expect(effectiveModuleSettings(ts, { module: ts.ModuleKind.CommonJS }).resolution).toBe(ts.ModuleResolutionKind.Node10);
  expect(effectiveModuleSettings(ts, { module: ts.ModuleKind.Node16 }).resolution).toBe(ts.ModuleResolutionKind.Node16);
  expect(effectiveModuleSettings(ts, { module: ts.ModuleKind.NodeNext }).resolution).toBe(ts.ModuleResolutionKind.NodeNext);
  expect(effectiveModuleSettings(ts, { module: ts.ModuleKind.Preserve }).resolution).toBe(ts.ModuleResolutionKind.Bundler);
});
