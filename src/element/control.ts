// Internal: a button beside the main one (fallback, stop, back, disconnect, keep), named by its part and described
// by the status line. While its action runs it keeps the focus: aria-disabled, never disabled.
import { html, type TemplateResult } from 'lit';

export const renderControl = (part: string, label: string, onClick: () => void, busy = false): TemplateResult =>
  html`<button
    part=${part}
    type="button"
    aria-disabled=${String(busy) as 'true' | 'false'}
    aria-describedby="status"
    @click=${onClick}
  >${label}</button>`;
