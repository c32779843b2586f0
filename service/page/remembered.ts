/**
 * The remembered rules page: every rule "Approve and remember" made, what it matches (its
 * guarantees as recorded, its libraries), who made it from which request, how often it fired, and
 * a revoke button (a form post, protected as every post of the page is).
 */
import type { StoredRule } from "../memory/store";
import { html, type Html } from "./html";
import { layout, sentenceOf, type PageContext } from "./views";

export function rememberedPage(context: PageContext, rules: readonly StoredRule[], firings: ReadonlyMap<string, { readonly count: number; readonly last: string }>, problem?: string): Html {
  const sections = rules.map((r) => {
    const fired = firings.get(r.id);
    return html`<section class="rule ${r.revokedAt ? "revoked" : "active"}" id="rule-${r.id}">
<h3>Rule <code>${r.id}</code> ${r.revokedAt ? html`<span class="bad">revoked</span>` : html`<span class="ok">active</span>`}</h3>
<p class="meta">Remembered by ${r.createdBy} at ${r.createdAt} from request <a href="/review/history/${encodeURIComponent(r.sourceRequestId)}"><code>${r.sourceRequestId}</code></a> · fired ${fired ? `${fired.count} time${fired.count === 1 ? "" : "s"}, last ${fired.last}` : "never"}${r.revokedAt ? html` · revoked by ${r.revokedBy ?? ""} at ${r.revokedAt}` : ""}</p>
<p>Approves a request that states exactly these guarantees (same contract source, template and arguments):</p>
<ul class="rule-guarantees">${r.rule.guarantees.map((g) => html`<li><code>${g.identity.call}</code>${sentenceOf(g.identity)}<p class="symbol"><code>${g.identity.symbol}</code> · identity <code class="digest">${g.identityDigest}</code></p></li>`)}</ul>
<p>and uses no library but: ${r.rule.libraries.map((l) => html`<code>${l.id}</code> (<code>${l.directory}</code>, ${l.origin}, ${l.revision}) `)}</p>
${r.revokedAt ? "" : html`<form method="post" action="/review/remembered/${encodeURIComponent(r.id)}/revoke" class="revoke"><input type="hidden" name="_csrf" value="${context.csrf ?? ""}"><button type="submit" class="reject">Revoke rule</button></form>`}
</section>`;
  });
  return layout(
    "Remembered rules",
    context,
    html`<h1>Remembered rules</h1>
<p class="note">A rule approves a later verified request only when it states exactly the same set of guarantees (each one's symbol, source digests, template digest and bound arguments) and uses no library the remembered request did not use. Each approval it makes names it and gets a single-use receipt.</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ""}
${rules.length === 0 ? html`<p class="empty">No rule is remembered.</p>` : sections}`,
  );
}
