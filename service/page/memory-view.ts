/**
 * The approval memory's part of a request page: for a pending request, whether "Approve and
 * remember" is offered (and, when not, each argument that is not eligible and why), and the
 * remembered rules that share a contract with it but do not apply, with the reason; for a decided
 * request, the rule that approved it or the rule it made, and its history record.
 */
import { identityDigest } from "../../core/approval/identity";
import { rememberProblems } from "../memory/remember";
import { explainMismatch } from "../memory/rules";
import type { MemoryStore } from "../memory/store";
import type { StoredRequest } from "../store/store";
import { html, type Html } from "./html";

export async function rememberView(memory: MemoryStore, stored: StoredRequest): Promise<{ readonly offered: boolean; readonly panel: Html }> {
  const history = html`<p class="history-link"><a href="/review/history/${encodeURIComponent(stored.id)}">History record of this request</a></p>`;
  if (stored.status !== "pending") {
    const firing = await memory.firingOf(stored.id);
    const made = await memory.ruleFromRequest(stored.id);
    const fired = firing ? await memory.rule(firing.ruleId) : undefined;
    return {
      offered: false,
      panel: html`${fired ? html`<p class="fired-rule">Approved automatically by remembered rule <a href="/review/remembered#rule-${fired.id}"><code>${fired.id}</code></a> (remembered by ${fired.createdBy} from request <a href="/review/history/${encodeURIComponent(fired.sourceRequestId)}"><code>${fired.sourceRequestId}</code></a>).</p>` : ""}
${made ? html`<p class="made-rule">Remembered as rule <a href="/review/remembered#rule-${made.id}"><code>${made.id}</code></a>${made.revokedAt ? html`, revoked by ${made.revokedBy ?? ""} at ${made.revokedAt}` : ", active"}.</p>` : ""}${history}`,
    };
  }
  const computed = stored.verification.computed;
  if (!stored.verification.verified || !computed) return { offered: false, panel: html`` };
  const problems = rememberProblems(stored);
  const ineligible = problems.length > 0 ? html`<div class="remember-ineligible"><p><strong>Not eligible for remembering</strong>: "Approve and remember" is not offered; approve once instead.</p><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : html``;
  // Rules that speak about one of this request's contracts but do not apply: say why, never pass over them silently.
  const names = new Set(computed.guarantees.map((g) => g.qualifiedName));
  const digests = new Set(computed.guarantees.map(identityDigest));
  const related = (await memory.activeRules()).filter((r) => r.rule.guarantees.some((g) => names.has(g.identity.qualifiedName) || digests.has(g.identityDigest)));
  const explained = related.map((r) => ({ rule: r, reasons: explainMismatch(r.rule, computed, stored.verification.profile) }));
  const misses = explained.filter((m) => m.reasons.length > 0);
  // Rules act on submissions: one made while this request was pending matches it but did not decide it.
  const matching = explained.filter((m) => m.reasons.length === 0);
  const nearMisses =
    misses.length > 0
      ? html`<div class="near-misses"><p>Remembered rules about these contracts that do <strong>not</strong> apply to this request:</p><ul>${misses.map((m) => html`<li class="near-miss"><a href="/review/remembered#rule-${m.rule.id}"><code>${m.rule.id}</code></a>: ${m.reasons.join("; ")}</li>`)}</ul></div>`
      : html``;
  const applies =
    matching.length > 0
      ? html`<p class="rule-applies">Remembered rule ${matching.map((m) => html`<a href="/review/remembered#rule-${m.rule.id}"><code>${m.rule.id}</code></a> `)}matches this request, which was pending before the rule was made; rules decide requests when they are submitted, so decide this one here.</p>`
      : html``;
  return { offered: problems.length === 0, panel: html`${ineligible}${applies}${nearMisses}` };
}
