// The providers' icons, served by the emulator itself so that the demo and
// tests stay offline: a rounded square in the provider's colour with its
// initial, one for a light UI and one for a dark UI. Plain SVG with no script,
// style or reference, served with a CSP that would block one anyway.
import { HttpProblem, methodNotAllowed } from '../http/http-problem.js';
import { escapeHtml } from './pages.js';
import { findProvider, type CatalogEntry } from './providers.js';

/** /media/{provider}.svg and /media/{provider}-dark.svg */
export const MEDIA_PATH = /^\/media\/([A-Za-z0-9-]+?)(-dark)?\.svg$/;

/** The icon as SVG text. */
export function iconSvg(provider: CatalogEntry, dark: boolean): string {
  const initial = escapeHtml(provider.displayName.charAt(0).toUpperCase());
  const label = escapeHtml(provider.displayName);
  // On a dark UI: the colour as a ring and the initial on a dark square, so a dark brand colour still shows.
  const square = dark
    ? `<rect x="2" y="2" width="60" height="60" rx="13" fill="#111827" stroke="${provider.color}" stroke-width="4"/>`
    : `<rect width="64" height="64" rx="14" fill="${provider.color}"/>`;
  const ink = dark ? '#f9fafb' : '#ffffff';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="${label}">` +
    `<title>${label}</title>${square}` +
    `<text x="32" y="43" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" ` +
    `font-size="30" font-weight="700" fill="${ink}">${initial}</text></svg>\n`
  );
}

/** Whether a path names an icon of a catalog provider (the only /media/ paths the emulator owns). */
export function isMediaPath(pathname: string): boolean {
  const match = MEDIA_PATH.exec(pathname);
  return match !== null && findProvider(match[1]) !== undefined;
}

/** GET (or HEAD) /media/{provider}[-dark].svg */
export function handleMedia(request: Request, pathname: string): Response {
  const match = MEDIA_PATH.exec(pathname);
  const provider = match ? findProvider(match[1]) : undefined;
  if (!match || !provider) throw new HttpProblem({ status: 404, detail: `no such icon: ${pathname}` });
  if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowed(request.method, 'GET, HEAD');
  const svg = iconSvg(provider, match[2] !== undefined);
  return new Response(request.method === 'HEAD' ? null : svg, {
    status: 200,
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      'content-security-policy': "default-src 'none'; sandbox",
      // X-Content-Type-Options: nosniff is on every answer of the emulator (emulator.ts).
      'cross-origin-resource-policy': 'cross-origin',
    },
  });
}
