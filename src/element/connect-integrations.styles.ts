import { css } from 'lit';

// The list: one layout for every row, a grid: the provider (icon, name, badge, what it is connected to,
// description) at the start, the row element's button at the end, and the element spanning the row below once it
// grows (its form, a flow's progress). While reading, placeholder rows of the final height. Text is in the page's
// own colour, so it reads on any page background; colour is only an accent (the badge's marker), through
// light-dark(). The rows' buttons are quieter than a lone element's: outlined in the page's text colour (the
// --connect-provider-* properties still win). In forced-colors mode the system's colours win and the markers keep
// their shapes.
export const connectIntegrationsStyles = css`
  :host {
    display: block;
  }
  :host([hidden]) {
    display: none;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  [part~='row'] {
    padding: 0.75em 0;
    border-top: 1px solid color-mix(in srgb, currentColor 15%, transparent);
    min-height: 2.5em;
  }
  [part~='row'] {
    container-type: inline-size;
  }
  .row {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0.5em 1em;
    align-items: start;
  }
  /* a right-to-left language where the page sets no dir */
  :host(:state(rtl)) {
    direction: rtl;
  }
  .name {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .name picture {
    display: inline-flex;
    vertical-align: middle;
    margin-inline-end: 0.5em;
  }
  .name img {
    width: 1.25em;
    height: 1.25em;
    object-fit: contain;
  }
  /* the row element: at the end of the name's line; across the row below once it grows (a form, a flow's progress) */
  connect-provider {
    justify-self: end;
    max-width: 100%;
  }
  .grown > connect-provider {
    grid-column: 1 / -1;
    justify-self: stretch;
  }
  small {
    display: block;
    font-size: 0.875em;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.35em;
    margin-inline-start: 0.5em;
    padding: 0 0.5em;
    font-size: 0.8125em;
    line-height: 1.6;
    border: 1px solid color-mix(in srgb, currentColor 40%, transparent);
    border-radius: 999px;
    white-space: nowrap;
    vertical-align: middle;
  }
  .badge::before {
    content: '';
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    border: 1px solid currentColor;
    box-sizing: border-box;
  }
  [data-state='connected'] .badge::before {
    border: 0;
    background: light-dark(#047857, #6ee7b7);
  }
  [data-state='attention'] .badge::before {
    border: 0;
    border-radius: 1px;
    background: light-dark(#b45309, #fcd34d);
  }
  [data-state='unknown'] .badge::before,
  [data-state='signed-out'] .badge::before {
    border-style: dashed;
  }
  [data-state='attention'] .badge {
    font-weight: 600;
  }
  /* the rows' buttons: outlined, in the page's text colour (light and dark alike) */
  connect-provider::part(button) {
    color: var(--connect-provider-color, inherit);
    background: var(--connect-provider-background, transparent);
    border: var(--connect-provider-border, 1px solid currentColor);
  }
  input,
  button {
    font: inherit;
  }
  /* the list's own buttons (filter, clear, retry): as quiet */
  button {
    color: inherit;
    background: transparent;
    border: 1px solid currentColor;
    border-radius: 6px;
    padding: 0.25em 0.75em;
    cursor: pointer;
  }
  button:focus-visible,
  input:focus-visible {
    outline: 2px solid light-dark(#2563eb, #93c5fd);
    outline-offset: 2px;
  }
  [part='filter'][aria-pressed='true'] {
    background: color-mix(in srgb, currentColor 12%, transparent);
    font-weight: 600;
  }
  .summary {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em 1em;
    margin-bottom: 0.5em;
  }
  [part='search'] {
    margin-bottom: 0.5em;
    padding: 0.25em 0.5em;
    width: 100%;
    max-width: 24em;
    box-sizing: border-box;
  }
  .status {
    margin: 0;
  }
  .status:not(:empty) {
    margin-bottom: 0.5em;
  }
  .status > * {
    display: block;
  }
  [part='clear'],
  [part='retry'] {
    margin-bottom: 0.5em;
  }
  .loading {
    opacity: 0.4;
  }
  [hidden] {
    display: none !important;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (forced-colors: active) {
    .badge::before {
      background: CanvasText !important;
    }
    [data-state='none'] .badge::before,
    [data-state='unknown'] .badge::before,
    [data-state='signed-out'] .badge::before {
      background: transparent !important;
    }
    [part='filter'][aria-pressed='true'] {
      border-width: 3px;
    }
  }
  /* a narrow row (a phone, a side panel): the element below the name, at the start, so neither squeezes the other */
  @container (max-width: 28em) {
    .row {
      grid-template-columns: minmax(0, 1fr);
    }
    connect-provider,
    .grown > connect-provider {
      justify-self: start;
    }
  }
`;
