/**
 * The coverage panel of a request page (docs/coverage.md): each library the program uses whose
 * manifest declares a coverage policy, worst status first, from the coverage the service computed
 * in its own proof (`verification.computed`), never from what the agent submitted.
 */
import type { ApprovalRequest } from "../../core/approval/types";
import type { CoverageJson } from "../../core/coverage/json";
import { COVERAGE_STATUSES, type CoverageStatus } from "../../core/coverage/types";
import { html, type Html } from "./html";

const LABELS: Record<CoverageStatus, string> = {
  "required-gap": "Required gap",
  "silent-gap": "Silent gap",
  "recommended-gap": "Recommended gap",
  covered: "Covered",
};

const EXPLAINED: Record<CoverageStatus, string> = {
  "required-gap": "The library's policy requires a contract the program does not state.",
  "silent-gap": "The program uses this library but states none of its contracts, and does not say noGuarantees(…) about it.",
  "recommended-gap": "The library's policy recommends a contract the program does not state.",
  covered: "The program states what the library's policy asks for.",
};

function contracts(label: string, list: CoverageJson["required"]): Html {
  if (list.length === 0) return html``;
  return html`<dt>${label}</dt><dd><ul>${list.map((c) => html`<li class="${c.stated ? "stated" : "missing"}"><code>${c.contract}</code> ${c.stated ? "stated" : "not stated"}</li>`)}</ul></dd>`;
}

function entry(c: CoverageJson): Html {
  return html`<li class="coverage-entry ${c.status}" data-library="${c.library}" data-status="${c.status}">
<p><span class="coverage-status ${c.status}">${LABELS[c.status]}</span> <strong>${c.title}</strong> <code>${c.library}</code></p>
<p class="coverage-note">${EXPLAINED[c.status]}</p>
<dl>
<dt>Used by</dt><dd><ul>${c.uses.map((u) => html`<li><code>${u.tool}</code> at <code>${u.location.file}:${u.location.line}:${u.location.column}</code></li>`)}</ul></dd>
${contracts("Required", c.required)}
${contracts("Recommended", c.recommended)}
<dt>Stated</dt><dd>${c.stated.length ? c.stated.map((s, i) => html`${i ? ", " : ""}<code>${s}</code>`) : "nothing"}${c.noGuarantees ? html` · the program says <code>noGuarantees(…)</code> about this library` : ""}</dd>
${c.problems.length ? html`<dt>Policy problems</dt><dd><ul class="coverage-problems">${c.problems.map((p) => html`<li class="coverage-problem">${p}</li>`)}</ul></dd>` : ""}
</dl>
</li>`;
}

/** The panel, or a note that the service has no coverage for this request (it was not proved). */
export function coveragePanel(computed: ApprovalRequest | null): Html {
  const list = computed?.coverage;
  if (!list) return html`<section id="coverage"><h2>Coverage</h2><p class="coverage-note">The service did not prove this program, so it computed no coverage.</p></section>`;
  const sorted = [...list].sort((a, b) => COVERAGE_STATUSES.indexOf(a.status) - COVERAGE_STATUSES.indexOf(b.status));
  return html`<section id="coverage"><h2>Coverage</h2>
${sorted.length === 0 ? html`<p class="coverage-note">The program uses no library that declares a coverage policy.</p>` : html`<ul class="coverage-list">${sorted.map(entry)}</ul>`}
</section>`;
}

export const COVERAGE_STYLESHEET = `.coverage-list{list-style:none;padding:0}.coverage-entry{background:#fff;border:1px solid #ddd;border-left-width:6px;border-radius:6px;padding:.4rem 1rem;margin:.6rem 0}
.coverage-entry.required-gap{border-left-color:#cf222e}.coverage-entry.silent-gap{border-left-color:#d4a72c}.coverage-entry.recommended-gap{border-left-color:#8c959f}.coverage-entry.covered{border-left-color:#1f883d}
.coverage-status{font-size:12px;font-weight:600;border-radius:4px;padding:1px 6px}.coverage-status.required-gap{background:#fde7ea;color:#b00020}.coverage-status.silent-gap{background:#fff4d1;color:#7d5a00}
.coverage-status.recommended-gap{background:#eaeef2}.coverage-status.covered{background:#e5f6e8;color:#116329}.coverage-entry .missing{color:#b00020}.coverage-note{color:#555;font-size:13px}.coverage-problem{color:#b00020}
`;
