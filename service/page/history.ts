/**
 * History pages: decided requests, each shown from the identity snapshot recorded when the
 * service verified it (memory/snapshot.ts) — never from today's libraries, which are not read here
 * at all. A record without a snapshot says "Resolved identity not recorded" and shows only the
 * expressions as they were submitted; nothing is reinterpreted against the current layer.
 */
import type { GuaranteeSnapshot } from "../memory/snapshot";
import type { HistoryEntry, StoredRule, StoredSnapshot } from "../memory/store";
import type { StoredRequest } from "../store/store";
import { html, type Html } from "./html";
import { badgeOf, layout, sentenceOf, type PageContext } from "./views";

function decisionLabel(decision: string): string {
  return decision.replace(/_/g, " ");
}

export function historyPage(context: PageContext, entries: readonly HistoryEntry[]): Html {
  const rows = entries.map(
    (e) => html`<tr><td><a href="/review/history/${encodeURIComponent(e.requestId)}">${e.requestId}</a></td><td>${e.programPath === null ? html`<span class="note">—</span>` : html`<code>${e.programPath}</code>`}</td>
<td class="decision-${e.decision}">${decisionLabel(e.decision)}</td><td>${e.firedRule ? html`rule <code>${e.firedRule}</code>` : e.reviewer}</td><td>${e.decidedAt}</td>
<td>${e.snapshotRecorded ? "recorded" : html`<span class="bad">not recorded</span>`}</td></tr>`,
  );
  return layout(
    "History",
    context,
    html`<h1>History</h1>
<p class="note">Decided requests, newest first, each as the service verified it when it was submitted: the identities below were recorded then and are not read again from today's libraries.</p>
${entries.length === 0 ? html`<p class="empty">No request has been decided yet.</p>` : html`<table class="history"><thead><tr><th>Request</th><th>Program</th><th>Decision</th><th>By</th><th>Decided</th><th>Identity snapshot</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  );
}

function guaranteeRecord(s: GuaranteeSnapshot, index: number, layerFingerprint: string): Html {
  const g = s.identity;
  const source = s.contractSource;
  const parameters = g.parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td><code>${p.type}</code></td><td><code>${p.literal}</code></td><td>${p.defaulted ? "default" : "written"}</td></tr>`);
  return html`<section class="guarantee recorded" id="guarantee-${index}">
<h3><span class="library-title">${g.library.title}</span> ${badgeOf(g)}</h3>
<p class="call"><code>${g.call}</code></p>
${sentenceOf(g)}
<p class="symbol"><code>${g.symbol}</code></p>
<details class="source"><summary>Source and documentation (as recorded)</summary>
<dl>
<dt>Expression</dt><dd><code>${g.expression}</code></dd>
<dt>Written at</dt><dd><code>${g.location.file}:${g.location.line}:${g.location.column}</code></dd>
<dt>Parameters</dt><dd><table class="params"><thead><tr><th>name</th><th>type</th><th>value</th><th></th></tr></thead><tbody>${parameters}</tbody></table></dd>
<dt>Contract source</dt><dd>${"problem" in source ? html`<p class="problem">Not captured: ${source.problem}</p>` : html`<p><code>${source.file}:${source.line}</code></p><pre class="contract-source">${source.text}</pre>`}</dd>
<dt>Source fingerprints (SHA-256)</dt><dd><ul class="digests">${g.sources.map((d) => html`<li><code>${d.file}</code> <code class="digest">${d.sha256}</code></li>`)}</ul></dd>
<dt>Layer fingerprint</dt><dd><code class="digest layer-fingerprint">${layerFingerprint}</code></dd>
<dt>Library</dt><dd><code>${g.library.id}</code> ${g.library.version}${s.lockLibrary ? html`, <code>${s.lockLibrary.directory}</code>, origin <code class="library-origin">${s.lockLibrary.origin}</code>, revision <code class="library-revision">${s.lockLibrary.revision}</code>` : html` (not in the lock's libraries)`}${g.library.manifest ? html`, manifest <code>${g.library.manifest}</code> <code class="digest">${g.library.manifestSha256 ?? ""}</code>` : ""}</dd>
<dt>Template</dt><dd>${g.template === null ? "none" : html`<code>${g.template}</code> <code class="digest template-digest">${g.templateSha256 ?? ""}</code>`} (renderer <span class="renderer-version">${g.rendererVersion}</span>)</dd>
<dt>Identity digest</dt><dd><code class="digest identity-digest">${s.identityDigest}</code></dd>
<dt>JSDoc</dt><dd>${g.documentation === null ? "none" : html`<pre class="jsdoc">${g.documentation}</pre>`}</dd>
</dl>
</details>
</section>`;
}

export interface HistoryRecord {
  readonly stored: StoredRequest;
  readonly snapshot: StoredSnapshot | undefined;
  readonly fired: StoredRule | undefined;
  readonly made: StoredRule | undefined;
}

export function historyRecordPage(context: PageContext, record: HistoryRecord): Html {
  const { stored, snapshot, fired, made } = record;
  const d = stored.decision;
  const decision = d
    ? html`<p><strong class="decision-${d.decision}">${decisionLabel(d.decision)}</strong> by ${fired ? html`remembered rule <a href="/review/remembered#rule-${fired.id}"><code>${fired.id}</code></a> (remembered by ${fired.createdBy})` : d.reviewer} at ${d.decidedAt}</p>
${d.feedback ? html`<p>Feedback:</p><pre class="feedback">${d.feedback}</pre>` : ""}
${made ? html`<p class="made-rule">Remembered as rule <a href="/review/remembered#rule-${made.id}"><code>${made.id}</code></a>${made.revokedAt ? html`, revoked by ${made.revokedBy ?? ""} at ${made.revokedAt}` : ""}.</p>` : ""}
${stored.receipt ? html`<p>Receipt <code>${stored.receipt.id}</code> (key <code>${stored.receipt.kid}</code>), expires ${stored.receipt.expiresAt}${stored.receipt.redeemedAt ? html`, redeemed ${stored.receipt.redeemedAt}` : ", not redeemed"}.</p>` : ""}`
    : html`<p class="note">Not decided yet: <a href="/review/requests/${encodeURIComponent(stored.id)}">open the request</a>.</p>`;
  const identities = snapshot
    ? html`<p class="snapshot-meta">Identity snapshot recorded ${snapshot.recordedAt} · digest <code class="digest snapshot-digest">${snapshot.digest}</code> · program <code>${snapshot.snapshot.program.path}</code> <code class="digest">${snapshot.snapshot.program.digest}</code></p>
${snapshot.snapshot.guarantees.length === 0 ? html`<p class="problem">The program stated no guarantees${snapshot.snapshot.noGuarantees > 0 ? " (it declared noGuarantees())" : ""}.</p>` : snapshot.snapshot.guarantees.map((g, i) => guaranteeRecord(g, i, snapshot.snapshot.layerFingerprint))}
${"problem" in snapshot.snapshot.libraries ? html`<p class="note">Libraries used: not known (${snapshot.snapshot.libraries.problem}).</p>` : html`<p class="note">Libraries used: ${snapshot.snapshot.libraries.map((l) => html`<code>${l.id}</code> (<code>${l.directory}</code>, ${l.origin}, ${l.revision}) `)}</p>`}`
    : html`<div class="no-snapshot" role="note"><p><strong>Resolved identity not recorded.</strong> ${stored.verification.verified ? "This decision was stored before identity snapshots existed" : "The request did not verify, so the service has no verified identity for it"}; it is not reinterpreted against today's libraries.</p>
<p>The guarantees as submitted (their original expressions, not verified):</p><ul class="original-expressions">${stored.request.guarantees.map((g) => html`<li><code>${g.expression}</code></li>`)}</ul></div>`;
  return layout(
    `History of ${stored.id}`,
    context,
    html`<h1>History of request <code>${stored.id}</code></h1>
<p class="meta">Submitted ${stored.submittedAt} · status <strong class="status">${stored.status.replace(/_/g, " ")}</strong></p>
<section class="decision"><h2>Decision</h2>${decision}</section>
<section id="guarantees"><h2>Guarantees as verified</h2>${identities}</section>`,
  );
}
