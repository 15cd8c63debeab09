// The HTML the emulator shows in the OAuth popup: a consent page standing in
// for the provider's, and the callback page that posts the completion message
// to window.opener as the real service does.
import { randomBytes } from 'node:crypto';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe to put inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const STYLE = `
:root { color-scheme: light dark; --accent: #4f46e5; --muted: #6b7280; --card: #fff; --bg: #f3f4f6; --fg: #111827; --border: #e5e7eb; }
@media (prefers-color-scheme: dark) { :root { --card: #1f2937; --bg: #111827; --fg: #f9fafb; --muted: #9ca3af; --border: #374151; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); display: grid; place-items: center; min-height: 100vh; padding: 16px; }
main { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 28px; max-width: 420px; width: 100%; box-shadow: 0 10px 30px rgb(0 0 0 / 0.08); }
.badge { display: inline-block; font-size: 12px; color: var(--muted); border: 1px solid var(--border); border-radius: 999px; padding: 2px 10px; margin-bottom: 12px; }
h1 { font-size: 20px; margin: 0 0 8px; }
p { margin: 0 0 16px; color: var(--muted); }
dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 20px; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 500; overflow-wrap: anywhere; }
form { display: grid; gap: 8px; }
button { font: inherit; padding: 10px 14px; border-radius: 8px; border: 1px solid var(--border); background: transparent; color: var(--fg); cursor: pointer; }
button[value=allow] { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

export interface PageOptions {
  status?: number;
  title: string;
  body: string;
  script?: string;
}

export function htmlPage({ status = 200, title, body, script }: PageOptions): Response {
  const nonce = randomBytes(12).toString('base64');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'referrer-policy': 'no-referrer',
      // X-Content-Type-Options: nosniff is on every answer of the emulator (emulator.ts).
    },
  });
}

export interface ConsentView {
  sessionId: string;
  mode: 'create' | 'update';
  appName: string;
  providerName: string;
  groupName: string;
  groupRef: string;
  consumerName: string;
  consumerRef: string;
  scopes: string[];
  /** The workspace and metadata the consent was given, as [label, text] rows. */
  details: ReadonlyArray<readonly [string, string]>;
}

export function consentPage(view: ConsentView): Response {
  const e = escapeHtml;
  const verb = view.mode === 'update' ? 'reconnect to' : 'connect to';
  return htmlPage({
    title: `${view.providerName}: authorize ${view.appName}`,
    body: `<span class="badge">Platform emulator: no real ${e(view.providerName)} account is used</span>
<h1>${e(view.appName)} wants to ${verb} ${e(view.providerName)}</h1>
<p>Choose what the provider answers. Allow grants access; the connection is verified a moment later.</p>
<dl>
<dt>Provider</dt><dd>${e(view.providerName)}</dd>
<dt>Group</dt><dd>${e(view.groupName)} (${e(view.groupRef)})</dd>
<dt>User</dt><dd>${e(view.consumerName)} (${e(view.consumerRef)})</dd>
<dt>Scopes</dt><dd>${e(view.scopes.join(', '))}</dd>
${view.details.map(([label, text]) => `<dt>${e(label)}</dt><dd>${e(text)}</dd>\n`).join('')}</dl>
<form method="post" action="/consent/${encodeURIComponent(view.sessionId)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="allow_bad_credentials">Allow with bad credentials</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  });
}

export type CompletionMessage =
  | { eventType: 'AUTHORIZATION_SUCCEEDED'; data: { connection: string } }
  | { eventType: 'AUTHORIZATION_FAILED'; data: { error: string } };

/** Posts the completion message to window.opener (target origin '*', as the real service) and closes. */
export function callbackPage(message: CompletionMessage): Response {
  const ok = message.eventType === 'AUTHORIZATION_SUCCEEDED';
  return htmlPage({
    title: ok ? 'Connected' : 'Authorization failed',
    body: `<h1>${ok ? 'Authorization complete' : 'Authorization failed'}</h1>
<p>${ok ? 'You can close this window.' : escapeHtml((message.data as { error: string }).error)}</p>`,
    script: `(function () {
  var message = ${scriptJson(message)};
  if (window.opener) window.opener.postMessage(message, '*');
  window.close();
})();`,
  });
}

export function errorPage(status: number, title: string, detail: string): Response {
  return htmlPage({ status, title, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>` });
}
