// The page around the sandboxed frame: the frame's sandbox (without allow-popups unless the switch says so), the
// timeline of the events the frame's elements send up, and the language chosen in the header, which reloads the
// frame in it.
import { language, onLanguage, prependLine, renderHeader, startLanguage, type TimelineEntry } from './shared.js';

const SANDBOX = 'allow-scripts allow-same-origin';
const POPUPS = 'allow-popups allow-popups-to-escape-sandbox';

const frame = document.querySelector<HTMLIFrameElement>('#frame')!;
const toggle = document.querySelector<HTMLInputElement>('#allow-popups')!;
const timeline = document.querySelector('#timeline')!;

// Lines of the timeline, from the frame's own page (sandboxed-frame.ts) and from nowhere else.
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== location.origin) return;
  const line = (event.data as { demoEvent?: TimelineEntry } | null)?.demoEvent;
  if (line) prependLine(timeline, line);
});

/** Loads the frame anew with the sandbox the switch asks for (a frame takes a changed sandbox when it navigates). */
function load(): void {
  frame.setAttribute('sandbox', toggle.checked ? `${SANDBOX} ${POPUPS}` : SANDBOX);
  document.querySelector('#sandbox')!.textContent = `sandbox="${frame.getAttribute('sandbox')}"`;
  frame.src = `/sandboxed-frame.html?lang=${language()}`;
}

toggle.addEventListener('change', load);
await startLanguage();
load();
onLanguage(load);
await renderHeader(null);
