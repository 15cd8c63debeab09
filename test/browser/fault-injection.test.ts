// The invariant under fault injection: every started flow ends in exactly one
// terminal event and leaves no timer, listener or request behind. The backend
// (/faulty/{seed}/...) answers 500, 503, 429 with retryAfter, slow answers and
// dropped connections at random; the "user" allows, denies, closes the popup,
// cancels or removes the element at random moments. A failing run names its
// seed; FAULT_SEED=n BROWSERS=... npm run test:browser replays it
// (FAULT_RUNS=n changes how many runs).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import { seeded } from '../shared/seeded.js';
import { answerConsent, button, capturePopups, held, signInFreshGroup, sleep, watch } from './helpers.js';

const ua = navigator.userAgent;
const engine = /Firefox\//.test(ua) ? 'firefox' : /Chrome\//.test(ua) ? 'chromium' : 'webkit';
// Seeds are distinct per engine, so the server's fault streams never mix.
const base = { chromium: 1, firefox: 100001, webkit: 200001 }[engine];
const config = await (await fetch('/__test__/config')).json();
const runs: number = config.faultRuns ?? (engine === 'chromium' ? 200 : 40);
const seeds: number[] = config.faultSeed != null ? [config.faultSeed] : Array.from({ length: runs }, (_, i) => base + i);

type Action = 'allow' | 'allow_bad_credentials' | 'deny' | 'close' | 'cancel' | 'remove' | 'nothing';

function pickAction(r: number): Action {
  if (r < 0.32) return 'allow';
  if (r < 0.46) return 'allow_bad_credentials';
  if (r < 0.56) return 'deny';
  if (r < 0.72) return 'close';
  if (r < 0.84) return 'cancel';
  if (r < 0.97) return 'remove';
  return 'nothing';
}

async function act(action: Action, el: ConnectProvider, popups: ReturnType<typeof capturePopups>, random: () => number) {
  const wait = Math.floor(random() * 400);
  if (action === 'allow' || action === 'allow_bad_credentials' || action === 'deny') {
    for (let i = 0; i < 200 && popups.popups.length === 0; i++) await sleep(10);
    const popup = popups.latest();
    if (popup) await answerConsent(popup, action).catch(() => {});
    return;
  }
  await sleep(wait);
  if (action === 'close') popups.latest()?.close();
  if (action === 'cancel') el.cancel();
  if (action === 'remove') el.remove();
}

const outcomes = new Map<string, number>();

describe(`<connect-provider> under fault injection (${seeds.length} seeded runs in ${engine})`, function () {
  this.timeout(30000);

  for (const seed of seeds) {
    it(`should end seed ${seed} with exactly one terminal event and nothing left`, async () => {
      const random = seeded(seed);
      signInFreshGroup();
      const popups = capturePopups();
      const realFetch = window.fetch;
      let fetchesAfterEnd = 0;
      let ended = false;
      window.fetch = function (...args: Parameters<typeof fetch>) {
        if (ended) fetchesAfterEnd++;
        return realFetch.apply(window, args);
      } as typeof fetch;
      try {
        const provider = ['salesforce', 'hubspot', 'slack'][Math.floor(random() * 3)];
        const el = (await fixture(
          html`<connect-provider endpoint="/faulty/${seed}/api/connect" provider=${provider} poll-interval="15" closed-grace="80" timeout="2500"></connect-provider>`,
        )) as ConnectProvider;
        const w = watch(el);
        const action = pickAction(random());
        button(el).click();
        const acting = act(action, el, popups, random);
        const first = await Promise.race([w.ended, sleep(12000).then(() => null)]);
        ended = true;
        const where = `seed ${seed} (${action}; replay: FAULT_SEED=${seed} BROWSERS=${engine} npm run test:browser)`;
        expect(first, `${where}: no terminal event; events ${w.types().join(', ')}`).to.not.equal(null);
        await acting;
        await sleep(100);
        expect(w.terminals(), `${where}: terminal events ${w.types().join(', ')}`).to.have.length(1);
        expect(held(el), `${where}: the flow still holds timers, requests or listeners`).to.equal(0);
        expect(fetchesAfterEnd, `${where}: requests after the terminal event`).to.equal(0);
        const final = el.getAttribute('state')!;
        expect(['working', 'bad_credentials', 'error', 'cancelled'], where).to.include(final);
        const outcome = first!.type === 'connect-error' ? `error:${first!.detail.code}` : first!.type;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        w.stop();
      } finally {
        window.fetch = realFetch;
        popups.restore();
        for (const popup of popups.popups) if (!popup.closed) popup.close();
      }
    });
  }

  if (seeds.length >= 40) {
    it('should have reached success, errors and cancels (the runs are not all alike)', () => {
      const seen = JSON.stringify([...outcomes].sort());
      expect(outcomes.get('connect-success') ?? 0, seen).to.be.greaterThan(0);
      expect(outcomes.get('connect-cancel') ?? 0, seen).to.be.greaterThan(0);
      expect([...outcomes.keys()].filter((k) => k.startsWith('error:')).length, seen).to.be.greaterThan(1);
    });
  }
});
