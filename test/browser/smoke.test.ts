import { expect } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';

describe('browser test harness', () => {
  it('should reach the test middleware', async () => {
    const response = await fetch('/__test__/ping');
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ ok: true });
  });

  it('should block a popup opened without a user gesture, as browsers do', () => {
    const popup = window.open('about:blank', '_blank', 'width=300,height=300');
    popup?.close();
    expect(popup === null, 'the popup blocker is on').to.equal(true);
  });

  it('should open a real popup from a real click, that can post to its opener', async () => {
    let popup: Window | null = null;
    const opener = document.createElement('button');
    opener.textContent = 'open';
    opener.style.cssText = 'position:fixed;left:0;top:0;width:80px;height:30px';
    opener.onclick = () => (popup = window.open('about:blank', '_blank', 'width=300,height=300'));
    document.body.append(opener);
    await sendMouse({ type: 'click', position: [40, 15] });
    await resetMouse();
    opener.remove();
    expect(popup, 'window.open returned null').to.not.equal(null);
    const received = new Promise<unknown>((resolve) => {
      window.addEventListener('message', (event) => resolve(event.data), { once: true });
    });
    const script = popup!.document.createElement('script');
    script.textContent = "window.opener.postMessage({ hello: 'opener' }, '*')";
    popup!.document.body.append(script);
    expect(await received).to.deep.equal({ hello: 'opener' });
    popup!.close();
  });
});
