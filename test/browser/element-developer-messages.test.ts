// The developer's console messages name the fix (docs/element.md, "Misconfiguration"): an endpoint that is not a
// connect backend (a typo, a handler mounted elsewhere) names the endpoint attribute, as written and as the page
// resolves it, and where the server mounts the handler; each read at rest says what its own route's failure costs,
// once per endpoint and route, whichever read fails first. Real handler and emulator behind the observed front,
// and the test server's own 404 for a path no handler serves.
import { expect, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  freshSessionEachTest,
  placeElement,
  setFault,
  uniqueTag,
  userClick,
  warnings,
  watch,
} from './helpers.js';

/** What each read at rest cannot do without its route. */
const COSTS = {
  connections: 'without this route the element cannot show the connection',
  providers: 'signs in with a popup or a form, nor show its name, icon or form',
};

/** The fix every "not a connect backend" message names, for the endpoint as the element has it. */
const fix = (endpoint: string) =>
  `not a connect backend: check the endpoint attribute ("${endpoint}", here ${location.origin}${endpoint}), or where the server mounts the connect handler`;

/** Places elements of these providers on one endpoint and waits until each has read at rest. */
async function placed(endpoint: string, providers: string[]): Promise<ConnectProvider[]> {
  const elements: ConnectProvider[] = [];
  for (const provider of providers) elements.push(await placeElement(endpoint, provider));
  for (const el of elements) await waitUntil(() => button(el).getAttribute('aria-busy') !== 'true', 'still neutral');
  return elements;
}

describe('the developer messages name the fix', () => {
  freshSessionEachTest();

  it("should say a failed providers read's own cost, not the connections route's, once for the endpoint", async () => {
    const tag = uniqueTag();
    const endpoint = `/observe/${tag}/real/api/connect`;
    // Only the providers route answers a page (a proxy rule that misses it): the connections read passes.
    await setFault(tag, { match: '^GET /api/connect/providers/', status: 404, html: true, count: 100 });
    let elements: ConnectProvider[] = [];
    const seen = await warnings(async () => {
      elements = await placed(endpoint, ['slack', 'hubspot']);
    });
    for (const el of elements) expect(el.getAttribute('connection-status'), el.provider).to.equal('none');
    expect(seen, seen.join('\n')).to.have.length(1);
    const [said] = seen;
    expect(said).to.match(new RegExp(`^<connect-provider>: GET ${endpoint}/providers/(slack|hubspot) answered 404`));
    expect(said).to.include(fix(endpoint));
    expect(said).to.match(/without this route the element cannot tell whether (slack|hubspot) signs in with a popup/);
    expect(said).to.include(COSTS.providers);
    expect(said).to.not.include('show the connection');
  });

  it('should name the endpoint attribute and the mount of a typo endpoint: each read its cost, once, and the flow', async () => {
    const endpoint = '/api/conect';
    let end: { type: string; detail: { code: string } } | undefined;
    const seen = await warnings(async () => {
      const [slack] = await placed(endpoint, ['slack', 'hubspot']);
      const w = watch(slack);
      await userClick(slack);
      end = await ended(w);
    });
    expect(end?.detail.code).to.equal('http_error');
    expect(seen, seen.join('\n')).to.have.length(3);
    for (const said of seen) expect(said, said).to.include(fix(endpoint));
    const route = (path: string) => seen.filter((said) => said.startsWith(`<connect-provider>: ${path}`));
    expect(route(`GET ${endpoint}/connections answered 404`), 'the connections read').to.have.length(1);
    expect(route(`GET ${endpoint}/connections`)[0]).to.match(new RegExp(`${COSTS.connections}$`));
    expect(route(`GET ${endpoint}/providers/`), 'one providers read for the two elements').to.have.length(1);
    expect(route(`GET ${endpoint}/providers/`)[0]).to.include(COSTS.providers);
    expect(route(`POST ${endpoint}/oauth-connect answered 404`), 'the flow').to.have.length(1);
  });
});
