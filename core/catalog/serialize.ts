/**
 * Deterministic serialization of catalogs: keys in the order the generator built them (it builds
 * every object in one fixed order; slots stay in signature order), two-space indentation, `\n`
 * line ends, a final newline, no timestamps. The same source always yields the same bytes.
 */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new Error(`catalog: ${String(v)} has no JSON form`);
    return v;
  }, 2)}\n`;
}

type Diff = { path: string; before: unknown; after: unknown };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function differences(a: unknown, b: unknown, path: string, out: Diff[]): void {
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      differences(a[k], b[k], path ? `${path}.${k}` : k, out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, before: a, after: b });
}

function show(v: unknown): string {
  if (v === undefined) return "(absent)";
  const s = JSON.stringify(v);
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
}

/**
 * A readable summary of how a checked-in catalog differs from the one generated now; empty when
 * the bytes are identical. Classes added, removed and changed (with the changed fields).
 */
export function catalogDifferences(checkedIn: string, generated: string): string[] {
  if (checkedIn === generated) return [];
  let before: unknown;
  let after: unknown;
  try {
    before = JSON.parse(checkedIn);
  } catch (e) {
    return [`the checked-in catalog is not valid JSON (${(e as Error).message})`];
  }
  after = JSON.parse(generated);
  const lines: string[] = [];
  const classesOf = (x: unknown): Record<string, unknown> => (isObject(x) && isObject(x.classes) ? x.classes : isObject(x) && isObject(x.$defs) ? x.$defs : {});
  const bc = classesOf(before);
  const ac = classesOf(after);
  for (const name of Object.keys(ac)) if (!(name in bc)) lines.push(`added: ${name}`);
  for (const name of Object.keys(bc)) if (!(name in ac)) lines.push(`removed: ${name}`);
  for (const name of Object.keys(ac)) {
    if (!(name in bc)) continue;
    const diffs: Diff[] = [];
    differences(bc[name], ac[name], "", diffs);
    if (diffs.length === 0) continue;
    lines.push(`changed: ${name}`);
    for (const d of diffs.slice(0, 8)) lines.push(`  ${d.path || "(whole)"}: ${show(d.before)} -> ${show(d.after)}`);
    if (diffs.length > 8) lines.push(`  ... and ${diffs.length - 8} more`);
  }
  const rest: Diff[] = [];
  const strip = (x: unknown): unknown => (isObject(x) ? { ...x, classes: undefined, $defs: undefined } : x);
  differences(strip(before), strip(after), "", rest);
  for (const d of rest.slice(0, 8)) lines.push(`schema ${d.path || "(whole)"}: ${show(d.before)} -> ${show(d.after)}`);
  if (rest.length > 8) lines.push(`schema: ... and ${rest.length - 8} more`);
  if (lines.length === 0) lines.push("same content, but the bytes differ (formatting, key order or line endings)");
  return lines;
}
