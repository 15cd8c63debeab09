import { css } from '@lit/reactive-element';

// Colors follow the page's own colour scheme (its color-scheme property or
// meta tag, inherited) through light-dark(), never the OS preference alone;
// every one can be replaced with a --connect-provider-* property.
export const styles = css`
  :host {
    display: inline-block;
    --_status: var(--connect-provider-status-color, light-dark(#4b5563, #d1d5db));
  }
  :host([hidden]) {
    display: none;
  }
  button {
    font: var(--connect-provider-font, inherit);
    color: var(--connect-provider-color, #fff);
    background: var(--connect-provider-background, #4f46e5);
    border: var(--connect-provider-border, 1px solid transparent);
    border-radius: var(--connect-provider-radius, 6px);
    padding: var(--connect-provider-padding, 0.5em 1em);
    cursor: pointer;
  }
  button:focus-visible {
    outline: var(--connect-provider-focus-ring, 2px solid #2563eb);
    outline-offset: 2px;
  }
  button:disabled,
  [aria-disabled=true] {
    opacity: 0.6;
    cursor: default;
  }
  [part=fallback] {
    margin-inline-start: 0.5em;
  }
  [part=status] {
    display: block;
    margin-top: 0.25em;
    font-size: 0.875em;
    color: var(--_status);
  }
  :host([state=error]),
  :host([state=bad_credentials]) {
    --_status: var(--connect-provider-error-color, light-dark(#b91c1c, #fca5a5));
  }
  :host([state=working]) {
    --_status: var(--connect-provider-success-color, light-dark(#047857, #6ee7b7));
  }
`;
