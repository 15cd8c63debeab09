// Internal: the element's small parts, drawn the same wherever they stand.
import { html, nothing, type TemplateResult } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import { isAllowedUrl } from '../shared/url.js';

/**
 * The element's parts, each documented by a `@csspart` line of its class (from which the manifest lists them; the
 * package test holds the two equal). The list's rows export each under its own name.
 */
export const PARTS = 'button,icon,status,fallback,stop,field,reveal,link,copy,qr,back,cancel,disconnect,keep';

/**
 * A button beside the main one (fallback, stop, back, cancel, disconnect, keep), named by its part (or by `name`, when
 * its label alone would not tell the rows of a list apart) and described by the status line. While its action runs it keeps the focus: aria-disabled, never disabled.
 */
export const renderControl = (
  part: string,
  label: string,
  onClick: () => void,
  busy = false,
  name?: string,
): TemplateResult =>
  html`<button
    part=${part}
    type="button"
    aria-label=${name ?? nothing}
    aria-disabled=${String(busy) as 'true' | 'false'}
    aria-describedby="status"
    @click=${onClick}
  >${label}</button>`;

/**
 * The provider's icon, dark under a dark colour scheme; `reading`: the provider is being read, and the icon's place is
 * kept.
 */
export function renderIcon(info: BrowserProvider | undefined, reading: boolean): TemplateResult | typeof nothing {
  const regular = info?.media?.regular?.iconURL;
  const dark = info?.media?.darkMode?.iconURL;
  if (isAllowedUrl(regular))
    return html`<picture
      >${
        isAllowedUrl(dark) ? html`<source srcset=${dark} media="(prefers-color-scheme: dark)" />` : nothing
      }<img part="icon" alt="" src=${regular} width="20" height="20"
    /></picture>`;
  return reading ? html`<span part="icon"></span>` : nothing;
}
