// In an iframe sandboxed without allow-popups, no popup can ever open: the
// element does not leave the user waiting for the 5-minute time-out. The
// fallback click that still opens nothing ends the flow with a clear error
// and one console warning naming the sandbox flags.
import { expect, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import type { ConnectProvider } from '../../src/index.js';
import { ready, signInFreshGroup } from './helpers.js';

/** A real click at the middle of an element inside the frame. */
async function clickIn(frame: HTMLIFrameElement, target: Element): Promise<void> {
  const outer = frame.getBoundingClientRect();
  const inner = target.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [
      Math.round(outer.left + inner.left + inner.width / 2),
      Math.round(outer.top + inner.top + inner.height / 2),
    ],
  });
  await resetMouse();
}

describe('<connect-provider> in a sandboxed iframe without allow-popups', () => {
  it('should end with invalid_config and one warning naming the sandbox flags, not a 5-minute wait', async () => {
    signInFreshGroup();
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    frame.style.cssText = 'position:fixed;left:0;top:0;width:500px;height:300px;border:0';
    frame.srcdoc = `<!doctype html><script type="module" src="${location.origin}/dist/connect-provider.js"></script>
      <connect-provider endpoint="${location.origin}/api/connect" provider="slack"></connect-provider>`;
    document.body.append(frame);
    try {
      const win = frame.contentWindow as Window & typeof globalThis;
      await waitUntil(() => win.customElements?.get('connect-provider'), 'the element did not load in the frame', {
        timeout: 8000,
      });
      const el = win.document.querySelector('connect-provider') as ConnectProvider;
      // As a person would click: once the button is no longer neutral (a click while the connection is read does
      // nothing, and under load the read can outlast the first render).
      await ready(el);
      const seen: string[] = [];
      win.console.warn = (...args: unknown[]) => void seen.push(args.join(' '));
      const events: string[] = [];
      for (const type of [
        'connect-start',
        'connect-popup-blocked',
        'connect-error',
        'connect-cancel',
        'connect-success',
      ])
        el.addEventListener(type, () => events.push(type));
      let code = '';
      el.addEventListener('connect-error', (e) => (code = e.detail.code));
      await clickIn(frame, el.shadowRoot!.querySelector('[part=button]')!);
      await waitUntil(() => events.includes('connect-popup-blocked'), `no connect-popup-blocked: ${events}`, {
        timeout: 8000,
      });
      await el.updateComplete;
      await clickIn(frame, el.shadowRoot!.querySelector('[part=fallback]')!);
      await waitUntil(() => events.includes('connect-error'), `no connect-error: ${events}`, { timeout: 3000 });
      expect(code).to.equal('invalid_config');
      expect(events).to.deep.equal(['connect-start', 'connect-popup-blocked', 'connect-error']);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.equal(
        'This page cannot open the sign-in window.',
      );
      const named = seen.filter((s) => s.includes('allow-popups') && s.includes('allow-popups-to-escape-sandbox'));
      expect(named, seen.join('\n')).to.have.length(1);
    } finally {
      frame.remove();
    }
  });
});
