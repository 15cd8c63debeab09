import { css } from 'lit';

// The list: rows of a provider's name (its icon and description under it) and its element; while reading,
// placeholder rows of the final height.
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
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em 1em;
    align-items: center;
    padding: 0.75em 0;
    border-top: 1px solid color-mix(in srgb, currentColor 15%, transparent);
    min-height: 2.5em;
  }
  .name {
    flex: 1 1 12em;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .name img {
    width: 1.25em;
    height: 1.25em;
    vertical-align: middle;
    margin-inline-end: 0.5em;
  }
  small {
    display: block;
    font-size: 0.875em;
  }
  input,
  button {
    font: inherit;
  }
  [part='search'] {
    margin-bottom: 0.5em;
    padding: 0.25em 0.5em;
    width: 100%;
    max-width: 24em;
    box-sizing: border-box;
  }
  .loading {
    opacity: 0.4;
  }
  [hidden] {
    display: none !important;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
