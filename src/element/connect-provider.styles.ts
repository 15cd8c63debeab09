import { css } from 'lit';

// The status line is in the page's own text colour, so it reads on any page
// background (a dark page without color-scheme too); colour is only an
// accent: the marker before it. The button's colours, and the accents, follow
// the page's colour scheme through light-dark(); every one can be replaced
// with a --connect-provider-* property. In forced-colors mode the system's
// colours win and the marker keeps its shape. Margins are logical, so the
// element mirrors under dir="rtl". The status line is always in the
// accessibility tree, empty or not, so its first message is announced.
export const connectProviderStyles = css`
  /* long words (a German label, a long provider name) wrap inside the element */
  :host {
    display: inline-block;
    max-width: 100%;
    overflow-wrap: anywhere;
  }
  :host([hidden]) {
    display: none;
  }
  /* a right-to-left language where the page sets no dir */
  :host(:state(rtl)) {
    direction: rtl;
  }
  button {
    font: var(--connect-provider-font, inherit);
    color: var(--connect-provider-color, #fff);
    background: var(--connect-provider-background, #4f46e5);
    border: var(--connect-provider-border, 1px solid transparent);
    border-radius: var(--connect-provider-radius, 6px);
    padding: var(--connect-provider-padding, 0.5em 1em);
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    gap: 0.5em;
    vertical-align: middle;
  }
  /* every control: buttons, inputs, a docs link */
  :focus-visible {
    outline: var(--connect-provider-focus-ring, 2px solid #2563eb);
    outline-offset: 2px;
  }
  /* busy stays readable (full contrast, with a progress cursor); only a disabled button fades */
  [aria-busy='true'] {
    cursor: progress;
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  /* the icon's <picture> (its dark source beside it) is one box the icon's size */
  picture {
    display: flex;
  }
  /* on a light tile: a dark brand icon reads on the button too */
  [part='icon'] {
    width: 1.25em;
    height: 1.25em;
    object-fit: contain;
    background: #fff;
    border-radius: 3px;
  }
  a {
    color: var(--connect-provider-link-color, inherit);
  }
  /* fallback, stop, disconnect, keep */
  button:not([part='button']) {
    margin: 0.25em 0;
    margin-inline-start: 0.5em;
    color: inherit;
    background: transparent;
    border: 1px solid currentColor;
  }
  [part='status'] {
    margin-top: 0.5em;
    color: var(--connect-provider-status-color, inherit);
  }
  .error::before,
  .success::before {
    content: '';
    display: inline-block;
    width: 0.6em;
    height: 0.6em;
    margin-inline-end: 0.4em;
    border-radius: 50%;
    background: var(--connect-provider-success-color, light-dark(#047857, #6ee7b7));
  }
  .error::before {
    border-radius: 1px;
    background: var(--connect-provider-error-color, light-dark(#b91c1c, #fca5a5));
  }
  /* an input's label, the input (with its reveal control), its prompt and its docs link, each on a line */
  .field,
  .field > *,
  .field small,
  .field a,
  [part='status'] {
    display: block;
  }
  form {
    display: contents;
  }
  .control {
    display: flex;
    align-items: center;
  }
  /* beside the button while the form is sent: the line keeps its height, so the button stays under the pointer */
  [part='cancel'] {
    margin-block: 0;
    vertical-align: top;
  }
  [part='reveal'] {
    margin: 0;
    margin-inline-start: 0.25em;
    padding: 0.25em 0.4em;
  }
  /* a secret shown as dots without type=password, which every browser's password manager takes for the page's login */
  .masked {
    -webkit-text-security: disc;
  }
  [readonly] {
    opacity: 0.7;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .field {
    margin-bottom: 0.5em;
  }
  .field small,
  [part='status'] {
    font-size: 0.875em;
  }
  input,
  select {
    font: inherit;
    padding: 0.25em 0.5em;
    margin: 0.25em 0;
  }
  @media (forced-colors: active) {
    .error::before,
    .success::before {
      background: CanvasText;
    }
  }
`;
