// The emulator's popup pages as a browser reads them: the text shown, an element's text, a row of the consent
// page's list, and the CSP nonces of an answer.
import assert from 'node:assert/strict';

/** The text a browser shows for an HTML fragment: tags dropped, character references decoded. */
export function shown(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

/** The shown text of the first element `tag` (e.g. 'h1', 'title') of a page. */
export function element(html: string, tag: string): string {
  const match = new RegExp(`<${tag}(?: [^>]*)?>([\\s\\S]*?)</${tag}>`).exec(html);
  assert.ok(match, `the page has a <${tag}>`);
  return shown(match[1]);
}

/** The shown value of a row of the consent page's list, by its label. */
export function row(html: string, label: string): string {
  const match = new RegExp(`<dt>${label}</dt><dd>([\\s\\S]*?)</dd>`).exec(html);
  assert.ok(match, `the consent page has a ${label} row`);
  return shown(match[1]);
}

/** The CSP nonces of a page's answer, by directive. */
export function cspNonce(response: Response, directive: string): string {
  const csp = response.headers.get('content-security-policy') ?? '';
  const match = new RegExp(`${directive} 'nonce-([^']+)'`).exec(csp);
  assert.ok(match, `the CSP allows ${directive} by nonce: ${csp}`);
  return match[1];
}
