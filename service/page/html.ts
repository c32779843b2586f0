/**
 * HTML with every interpolation escaped: `html\`<p>${text}</p>\`` escapes `text` with `escape-html`
 * (Express's escaper: `& < > " '`), so markup can only come from the template literals of this
 * folder or from another `html` fragment. Characters that change how text reads without being
 * seen (bidirectional controls, zero-width and other format characters, control characters, line
 * and paragraph separators) are shown as a visible `⟨U+202E⟩` marker instead: a reviewer reads
 * the string as it is, not as a bidi override reorders it (the "Trojan Source" trick).
 */
import escapeHtml from "escape-html";

/** Markup made by this module: the only thing interpolated without escaping. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

/** Format (Cf), control (Cc, but for tab and line ends), line and paragraph separators. */
const HIDDEN = /[\p{Cf}\p{Zl}\p{Zp}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/gu;

/** Text as HTML: escaped, with every hidden character made visible. */
export function text(value: string): Html {
  let out = "";
  let last = 0;
  for (const match of value.matchAll(HIDDEN)) {
    const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    out += `${escapeHtml(value.slice(last, match.index))}<span class="hidden-char" title="an invisible character in the text">⟨U+${code}⟩</span>`;
    last = match.index + match[0].length;
  }
  return new Html(out + escapeHtml(value.slice(last)));
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return text(String(value)).markup;
}

/** The tagged template: literal parts as written, interpolations escaped. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => (out += render(v) + strings[i + 1]!));
  return new Html(out);
}
