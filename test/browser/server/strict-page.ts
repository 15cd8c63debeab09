// Koa middleware for @web/test-runner: a host page under a strict
// Content-Security-Policy with Trusted Types, for test/browser/element-csp.test.ts.
// The documented policy is read from docs/element.md (its block
// "http example:strict-csp") on every request, so the page is served exactly
// what the documentation tells hosts to send.
//   GET /__strict__/page?policy=documented         the documented header
//   GET /__strict__/page?policy=without-lit-html   its trusted-types list naming
//                                                  an app's policy instead of lit-html
//   &copies=2                                      the self-contained file loaded twice (two Lits)
//   &duplicates                                    'allow-duplicates' added to the list
//   GET /__strict__/watch.js   what the page records: CSP violations and uncaught errors
import { readFileSync } from 'node:fs';

interface KoaContext {
  path: string;
  query: Record<string, string | string[] | undefined>;
  type: string;
  body: unknown;
  status: number;
  set(name: string, value: string): void;
}
type Next = () => Promise<unknown>;

const DOCS = new URL('../../../docs/element.md', import.meta.url);

/** The policy docs/element.md documents, without the header's name. */
function documentedPolicy(): string {
  const block = /^```http example:strict-csp\nContent-Security-Policy: (.+)\n```$/m.exec(readFileSync(DOCS, 'utf8'));
  if (!block) throw new Error('docs/element.md has no "http example:strict-csp" block with a Content-Security-Policy');
  return block[1]!;
}

/** The policy with its trusted-types list changed by `change` (which must change it: `what` says how). */
function withTrustedTypes(policy: string, what: string, change: (list: string) => string): string {
  const changed = policy.replace(/(\btrusted-types )([^;]+)/, (_, name: string, list: string) => name + change(list));
  if (changed === policy) throw new Error(`could not ${what} in the trusted-types list of: ${policy}`);
  return changed;
}

function policyFor(query: KoaContext['query']): string {
  let policy = documentedPolicy();
  if (query.policy === 'without-lit-html')
    policy = withTrustedTypes(policy, 'replace lit-html', (list) =>
      list.replace(/(^|\s)lit-html(?=\s|$)/, '$1app-policy'),
    );
  else if (query.policy !== 'documented') throw new Error(`unknown policy ${String(query.policy)}`);
  if (query.duplicates !== undefined)
    policy = withTrustedTypes(policy, "add 'allow-duplicates'", (list) => `${list} 'allow-duplicates'`);
  return policy;
}

// No inline script or style anywhere: the policy allows neither.
const WATCH = `window.seen = { violations: [], errors: [] };
document.addEventListener('securitypolicyviolation', (e) => {
  window.seen.violations.push(e.effectiveDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
}, true);
window.addEventListener('error', (e) => window.seen.errors.push(String(e.message)));
`;

export async function strictPage(ctx: KoaContext, next: Next): Promise<unknown> {
  if (ctx.path === '/__strict__/watch.js') {
    ctx.type = 'text/javascript';
    ctx.body = WATCH;
    return undefined;
  }
  if (ctx.path !== '/__strict__/page') return next();
  const copies = ctx.query.copies === '2' ? ['?copy=1', '?copy=2'] : [''];
  ctx.set('content-security-policy', policyFor(ctx.query));
  ctx.type = 'text/html';
  ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>A strict page</title>
<script src="/__strict__/watch.js"></script>
${copies.map((copy) => `<script type="module" src="/dist/connect-provider.js${copy}"></script>`).join('\n')}
</head>
<body>
<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="100"></connect-provider>
</body>
</html>
`;
  return undefined;
}
