/**
 * The reviewers' pages, rendered on the server (no script at all: `<details>` expands, forms
 * post). Every guarantee shown is from the request the service computed in its own verification
 * (`verification.computed`), never from what the agent submitted; a request that did not verify is
 * marked so and offers no approval. Every string that came from an agent goes through `html`.
 */
import type { ApprovalRequest } from "../../core/approval/types";
import type { GuaranteeIdentity } from "../../core/describe";
import type { StoredRequest } from "../store/store";
import { html, type Html } from "./html";
import type { CapturedSource } from "./source";
import { coveragePanel } from "./coverage";

/** Who is signed in, the form token for their session, and what "approve and remember" does (the API's note). */
export interface PageContext {
  readonly reviewer?: string;
  readonly csrf?: string;
  readonly rememberNote: string;
  /** The approval memory's part of a request page (page/memory-view.ts): whether remembering is offered, and what it says. */
  readonly remember?: { readonly offered: boolean; readonly panel: Html };
}

export function layout(title: string, context: Pick<PageContext, "reviewer" | "csrf">, body: Html): Html {
  const header = context.reviewer
    ? html`<form class="signout" method="post" action="/review/logout"><input type="hidden" name="_csrf" value="${context.csrf ?? ""}"><span>Signed in as <strong>${context.reviewer}</strong></span> <button type="submit">Sign out</button></form>`
    : html``;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · clauz3 approvals</title><link rel="stylesheet" href="/review/page.css"></head>
<body><header><a class="brand" href="/review">clauz3 approvals</a>${context.reviewer ? html`<nav><a href="/review">Queue</a> <a href="/review/history">History</a> <a href="/review/remembered">Remembered rules</a></nav>` : ""}${header}</header>
<main>${body}</main></body></html>
`;
}

export function loginPage(csrf: string, problem?: string): Html {
  return layout(
    "Sign in",
    {},
    html`<h1>Sign in</h1>
<p>Reviewers sign in with the token the operator issued them (<code>clauz3 approval-service token add &lt;name&gt;</code>).</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ""}
<form method="post" action="/review/login" class="login">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="token">Reviewer token</label>
<input id="token" name="token" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function queuePage(context: PageContext, entries: readonly StoredRequest[]): Html {
  const rows = entries.map((s) => {
    const shown = s.verification.computed ?? s.request;
    return html`<tr><td><a href="/review/requests/${encodeURIComponent(s.id)}">${s.id}</a></td><td><code>${shown.program.path}</code></td><td>${shown.guarantees.length}</td>
<td>${s.verification.verified ? html`<span class="ok">verified</span>` : html`<span class="bad">not verified</span>`}</td><td>${s.submittedAt}</td></tr>`;
  });
  return layout(
    "Pending requests",
    context,
    html`<h1>Pending requests</h1>
${entries.length === 0 ? html`<p class="empty">No request is waiting for a decision.</p>` : html`<table class="queue"><thead><tr><th>Request</th><th>Program</th><th>Guarantees</th><th>Verification</th><th>Submitted</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  );
}

export function badgeOf(g: GuaranteeIdentity): Html {
  const badge = g.library.badge;
  return badge === "mock" ? html`<span class="badge mock">Mock</span>` : badge === "mixed" ? html`<span class="badge mixed">Mixed</span>` : html`<span class="badge real">Real</span>`;
}

export function sentenceOf(g: GuaranteeIdentity): Html {
  if (g.sentenceSource === "template") return html`<p class="sentence">${g.sentence ?? ""}</p>`;
  if (g.sentenceSource === "documentation") {
    return html`<p class="sentence from-doc">${g.sentence ?? ""}</p><p class="sentence-note">From the contract's JSDoc: no sentence was generated (${g.sentenceProblem ?? "no reason recorded"}).</p>`;
  }
  return html`<p class="sentence-note">No sentence and no JSDoc: ${g.sentenceProblem ?? "no reason recorded"}. Read the source below.</p>`;
}

function guaranteeSection(request: ApprovalRequest, g: GuaranteeIdentity, index: number, source: CapturedSource): Html {
  const library = request.layer.libraries.find((l) => l.id === g.library.id);
  const parameters = g.parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td><code>${p.type}</code></td><td><code>${p.literal}</code></td><td>${p.defaulted ? "default" : "written"}</td></tr>`);
  return html`<section class="guarantee" id="guarantee-${index}">
<h3><span class="library-title">${g.library.title}</span> ${badgeOf(g)}</h3>
<p class="call"><code>${g.call}</code></p>
${sentenceOf(g)}
<p class="symbol"><code>${g.symbol}</code></p>
<details class="source"><summary>Source and documentation</summary>
<dl>
<dt>Expression</dt><dd><code>${g.expression}</code></dd>
<dt>Written at</dt><dd><code>${g.location.file}:${g.location.line}:${g.location.column}</code></dd>
<dt>Parameters</dt><dd><table class="params"><thead><tr><th>name</th><th>type</th><th>value</th><th></th></tr></thead><tbody>${parameters}</tbody></table></dd>
<dt>Contract source</dt><dd>${"problem" in source ? html`<p class="problem">Not captured: ${source.problem}</p>` : html`<p><code>${source.file}:${source.line}</code></p><pre class="contract-source">${source.text}</pre>`}</dd>
<dt>Source fingerprints (SHA-256)</dt><dd><ul class="digests">${g.sources.map((s) => html`<li><code>${s.file}</code> <code class="digest">${s.sha256}</code></li>`)}</ul></dd>
<dt>Layer fingerprint</dt><dd><code class="digest">${request.layer.fingerprint}</code></dd>
<dt>Library</dt><dd><code>${g.library.id}</code> ${g.library.version}${library ? html`, origin <code>${library.origin}</code>, revision <code>${library.revision}</code>` : html` (not in the lock's libraries)`}${g.library.manifest ? html`, manifest <code>${g.library.manifest}</code> <code class="digest">${g.library.manifestSha256 ?? ""}</code>` : ""}</dd>
<dt>Template</dt><dd>${g.template === null ? "none" : html`<code>${g.template}</code> <code class="digest">${g.templateSha256 ?? ""}</code>`} (renderer ${g.rendererVersion})</dd>
<dt>JSDoc</dt><dd>${g.documentation === null ? "none" : html`<pre class="jsdoc">${g.documentation}</pre>`}</dd>
</dl>
</details>
</section>`;
}

function decisionForms(context: PageContext, stored: StoredRequest): Html {
  const verified = stored.verification.verified;
  return html`<form method="post" action="/review/requests/${encodeURIComponent(stored.id)}/decision" class="decide">
<input type="hidden" name="_csrf" value="${context.csrf ?? ""}">
<label for="feedback">Feedback for the agent (required to request changes)</label>
<textarea id="feedback" name="feedback" rows="4" maxlength="20000"></textarea>
<div class="buttons">
${verified ? html`<button type="submit" name="decision" value="approved_once" class="approve">Approve once</button>
${context.remember?.offered === false ? "" : html`<button type="submit" name="decision" value="approved_remember" class="approve">Approve and remember</button>`}` : ""}
<button type="submit" name="decision" value="changes_requested">Request changes</button>
<button type="submit" name="decision" value="rejected" class="reject">Reject</button>
</div>
${verified ? html`<p class="note">Note: ${context.rememberNote}.</p>` : html`<p class="note">This request did not verify, so it cannot be approved.</p>`}
${context.remember?.panel ?? ""}
</form>`;
}

function decided(stored: StoredRequest, rememberNote: string, memory?: Html): Html {
  const d = stored.decision!;
  const r = stored.receipt;
  return html`<section class="decision"><h2>Decision</h2>
<p><strong class="decision-${d.decision}">${d.decision.replace(/_/g, " ")}</strong> by ${d.reviewer} at ${d.decidedAt}</p>
${d.decision === "approved_remember" ? html`<p class="note">${rememberNote}.</p>` : ""}${memory ?? ""}
${d.feedback ? html`<p>Feedback:</p><pre class="feedback">${d.feedback}</pre>` : ""}
${r ? html`<p>Receipt <code>${r.id}</code> (key <code>${r.kid}</code>), ${r.singleUse ? "single-use" : "reusable"}, expires ${r.expiresAt}${r.redeemedAt ? html`, redeemed ${r.redeemedAt}` : ", not redeemed yet"}.</p>` : ""}
</section>`;
}

function programSection(request: ApprovalRequest, label: string): Html {
  const p = request.program;
  const lines = p.source.split("\n").length;
  return html`<details class="program"><summary>The program: <code>${p.path}</code> (${lines} lines${p.imports.length ? `, ${p.imports.length} agent module${p.imports.length === 1 ? "" : "s"}` : ""})${label}</summary>
<p>Digest <code class="digest">${p.digest}</code>, target <code>${p.target}</code></p>
<p>Inputs</p><pre class="inputs">${JSON.stringify(request.inputs, null, 2)}</pre>
<pre class="program-source">${p.source}</pre>
${p.imports.map((m) => html`<p><code>${m.path}</code> <code class="digest">${m.sha256}</code></p><pre class="program-source">${m.source}</pre>`)}
</details>`;
}

export function requestPage(context: PageContext, stored: StoredRequest, captured: (request: ApprovalRequest, g: GuaranteeIdentity) => CapturedSource, problem?: string): Html {
  const { verification } = stored;
  const computed = verification.computed;
  const status = verification.verified
    ? html`<p class="verified ok">Verified: the service re-read and re-proved this program against its operator's layer; everything below is what it computed.</p>`
    : html`<div class="verified bad" role="alert"><p><strong>Not verified</strong>: this request cannot be approved.</p><ul class="problems">${verification.problems.map((p) => html`<li><code>${p.field}</code> ${p.problem}</li>`)}</ul></div>`;
  const guarantees = computed
    ? html`<section id="guarantees"><h2>Guarantees</h2>${computed.guarantees.length === 0 ? html`<p class="problem">This program states no guarantees${computed.noGuarantees > 0 ? " (it declares noGuarantees())" : ""}.</p>` : computed.guarantees.map((g, i) => guaranteeSection(computed, g, i, captured(computed, g)))}</section>`
    : html`<section id="guarantees"><h2>Guarantees</h2><p class="problem">The service could not compute this request's guarantees, so none is shown (what the agent submitted is not evidence).</p></section>`;
  return layout(
    `Request ${stored.id}`,
    context,
    html`<h1>Request <code>${stored.id}</code></h1>
<p class="meta">Submitted ${stored.submittedAt} · status <strong class="status">${stored.status.replace(/_/g, " ")}</strong></p>
${status}
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ""}
${guarantees}
${coveragePanel(computed)}
${stored.status === "pending" ? decisionForms(context, stored) : decided(stored, context.rememberNote, context.remember?.panel)}
${programSection(computed ?? stored.request, computed ? "" : " — as submitted, not verified")}`,
  );
}

export function errorPage(context: Pick<PageContext, "reviewer" | "csrf">, title: string, message: string): Html {
  return layout(title, context, html`<h1>${title}</h1><p class="problem" role="alert">${message}</p><p><a href="/review">Back to the queue</a></p>`);
}

export const STYLESHEET = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{display:flex;justify-content:space-between;align-items:center;padding:.6rem 1.2rem;background:#20232a;color:#fff}
header a.brand{color:#fff;font-weight:600;text-decoration:none}header nav a{color:#cfd8e3;margin-left:1rem}header form{margin:0}header button{margin-left:.5rem}
main{max-width:960px;margin:1rem auto;padding:0 1.2rem}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f0f0f3;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
.guarantee{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
.guarantee h3{margin:.2rem 0}.call code{font-size:14px}.sentence{font-size:17px;margin:.4rem 0}.from-doc{font-style:italic}
.sentence-note{color:#8a5a00;font-size:13px}.symbol code{color:#555}
.badge{font-size:12px;border-radius:4px;padding:1px 6px;vertical-align:middle}.mock{background:#ffe08a}.mixed{background:#ffc7a1}.real{background:#c9efd0}
.ok{color:#116329}.bad{color:#b00020}.verified{padding:.5rem .8rem;border-radius:6px}.verified.ok{background:#e5f6e8}.verified.bad{background:#fde7ea}
.problem{color:#b00020}.note{color:#555;font-size:13px}.digest{word-break:break-all;color:#555}
.hidden-char{background:#ffd6d6;color:#900;border-radius:3px;font-size:11px;padding:0 2px}
dl dt{font-weight:600;margin-top:.5rem}dl dd{margin-left:1rem}
table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left}
textarea{width:100%;box-sizing:border-box}.buttons{margin:.5rem 0;display:flex;gap:.5rem;flex-wrap:wrap}
button{padding:.35rem .8rem;font:inherit;cursor:pointer}.approve{background:#1f883d;color:#fff;border:1px solid #1a7f37;border-radius:5px}.reject{background:#cf222e;color:#fff;border:1px solid #a40e26;border-radius:5px}
details{margin:.5rem 0}summary{cursor:pointer;font-weight:600}
`;
