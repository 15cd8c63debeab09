import { expect } from '@open-wc/testing';

describe('browser test harness', () => {
  it('should reach the test middleware', async () => {
    const response = await fetch('/__test__/ping');
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ ok: true });
  });

  it('should open a real popup that can post to its opener', async () => {
    const popup = window.open('about:blank', '_blank', 'width=300,height=300');
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
