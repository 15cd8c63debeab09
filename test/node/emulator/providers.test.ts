// Each provider of the catalog: its brand's name, the icons the emulator serves itself (the brand's colour, its
// initial, embeddable from any origin), and the inputs it needs before the popup (a Zendesk workspace, a NetSuite
// account ID), shown on its consent page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { ownsPath } from '../../../src/emulator/emulator.js';
import { PROVIDERS } from '../../../src/emulator/providers.js';
import { allow } from '../helpers/consent.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';
import { KEY } from '../helpers/emulator.js';
import { shown } from '../helpers/pages.js';

/** The brands' own spellings (their sites and logos), not the catalog names capitalized. */
const BRAND_NAMES: Record<string, string> = {
  salesforce: 'Salesforce',
  hubspot: 'HubSpot',
  slack: 'Slack',
  notion: 'Notion',
  google: 'Google',
  microsoft: 'Microsoft',
  zendesk: 'Zendesk',
  linear: 'Linear',
  asana: 'Asana',
  atlassian: 'Atlassian (Jira)',
  pipedrive: 'Pipedrive',
  intercom: 'Intercom',
  gong: 'Gong',
  zoho: 'Zoho CRM',
  netsuite: 'NetSuite',
  apollo: 'Apollo',
  insightly: 'Insightly',
  cloudtalk: 'CloudTalk',
  paypal: 'PayPal',
  clariCopilot: 'Clari Copilot',
};

/** The shown text of the consent page's row `label` (its <dt>), or undefined when it has none. */
function row(html: string, label: string): string | undefined {
  const rows = [...html.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([\s\S]*?)<\/dd>/g)];
  const found = rows.find((m) => shown(m[1]) === label);
  return found ? shown(found[2]) : undefined;
}

/**
 * Checks that text is one well-formed SVG element with nothing active in it: balanced tags, the SVG namespace, and
 * no script, event handler, link, style, foreign object or external reference. Returns the element names used.
 */
function assertPlainSvg(text: string, why: string): string[] {
  assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/, `${why}: an SVG root in its namespace`);
  assert.match(text.trimEnd(), /<\/svg>$/, `${why}: closes its root`);
  assert.doesNotMatch(text, /<script|<foreignObject|<style|<image|<use|href|\son\w+\s*=|url\(|javascript:/i, why);
  const stack: string[] = [];
  const names: string[] = [];
  for (const [tag, closing, name, selfClosing] of text.matchAll(/<(\/?)([A-Za-z][\w:-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
    if (closing) {
      assert.equal(stack.pop(), name, `${why}: </${name}> closes what it opened (${tag})`);
    } else {
      names.push(name);
      if (!selfClosing) stack.push(name);
    }
    if (stack.length === 0) assert.ok(text.trimEnd().endsWith(tag), `${why}: nothing after the root`);
  }
  assert.deepEqual(stack, [], `${why}: every element is closed`);
  // Text between tags holds no markup of its own.
  assert.doesNotMatch(text.replace(/<[^<>]*>/g, ''), /[<>]/, `${why}: no stray markup`);
  return names;
}

/** The attributes of the first element `tag` of an SVG, by name. */
function attributesOf(svg: string, tag: string): Record<string, string> {
  const match = new RegExp(`<${tag}\\s([^>]*?)/?>`).exec(svg);
  assert.ok(match, `the icon has a <${tag}>`);
  return Object.fromEntries([...match[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** A colour as #rrggbb (or #rgb), lower-cased; fails on anything else (an empty fill draws nothing). */
function colour(value: string | undefined, why: string): string {
  assert.match(value ?? '', /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, `${why}: a colour, not ${JSON.stringify(value)}`);
  return value!.toLowerCase();
}

/** The relative luminance of #rrggbb or #rgb (WCAG 2), from 0 (black) to 1 (white). */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [1, 3, 5].map((i) => hex.slice(i, i + 2));
  const [r, g, b] = digits.map((d) => {
    const c = parseInt(d, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('emulator providers: names, icons and the inputs a provider needs', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let contract: ContractFetch;

  before(async () => {
    emulator = createEmulator({ verifyDelay: 0 });
    info = await emulator.listen();
    contract = contractFetch();
  });
  after(async () => {
    await emulator.close();
    assert.deepEqual(contract.violations, [], 'every answer validates against openapi.yaml');
  });

  const connect = (body: Record<string, unknown>) =>
    contract.fetch(`${info.baseUrl}/oauth-connect`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'demo', groupRef: 'inputs', consumerRef: 'u1', ...body }),
    });

  /** Asserts a 400 validation problem whose one issue names `name` in the body. */
  async function assertRefused(response: Response, name: string, why: string): Promise<void> {
    assert.equal(response.status, 400, why);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, why);
    const problem = await response.json();
    assert.equal(problem.status, 400, why);
    assert.equal(problem.type, 'urn:connect-provider:problem:validation', why);
    assert.equal(problem.issues.length, 1, `${why}: one issue`);
    assert.equal(problem.issues[0].name, name, why);
    assert.equal(problem.issues[0].in, 'body', why);
    assert.ok(problem.detail.includes(name), `${why}: the detail names ${name}`);
    assert.equal(problem.stack, undefined);
  }

  describe('the catalog: display names and media', () => {
    it("names every provider in its brand's own spelling", async () => {
      assert.deepEqual(Object.keys(BRAND_NAMES).sort(), PROVIDERS.map((p) => p.name).sort());
      for (const [name, displayName] of Object.entries(BRAND_NAMES)) {
        const answer = await (await contract.fetch(`${info.baseUrl}/providers/${name}`)).json();
        assert.equal(answer.displayName, displayName, name);
      }
    });

    it("answers icon URLs on the emulator's own origin, that validate against openapi.yaml", async () => {
      for (const provider of PROVIDERS) {
        const response = await contract.fetch(`${info.baseUrl}/providers/${provider.name}`);
        assert.equal(response.status, 200);
        const { media } = await response.json();
        assert.deepEqual(media, {
          regular: { iconURL: `${info.url}/media/${provider.name}.svg` },
          darkMode: { iconURL: `${info.url}/media/${provider.name}-dark.svg` },
        });
      }
      assert.deepEqual(contract.violations, []);
      assert.ok(contract.seen.get('getProvider')?.has(200));
    });

    it('answers icon URLs on --public-url when it is set, as its consent links', async () => {
      const behind = createEmulator({ publicUrl: 'https://emulator.example.test' });
      try {
        const own = await behind.listen();
        const answer = await (await contract.fetch(`${own.baseUrl}/providers/hubspot`)).json();
        assert.equal(answer.media.regular.iconURL, 'https://emulator.example.test/media/hubspot.svg');
        assert.equal(answer.media.darkMode.iconURL, 'https://emulator.example.test/media/hubspot-dark.svg');
      } finally {
        await behind.close();
      }
    });

    it('serves each icon itself: a plain, cacheable SVG under a strict CSP, a dark one for a dark UI', async () => {
      for (const provider of PROVIDERS) {
        const bodies: string[] = [];
        for (const url of [`${info.url}/media/${provider.name}.svg`, `${info.url}/media/${provider.name}-dark.svg`]) {
          const response = await fetch(url);
          assert.equal(response.status, 200, url);
          assert.equal(response.headers.get('content-type'), 'image/svg+xml', url);
          assert.equal(response.headers.get('x-content-type-options'), 'nosniff', url);
          const csp = response.headers.get('content-security-policy') ?? '';
          assert.match(csp, /default-src 'none'/, url);
          assert.match(csp, /sandbox/, url);
          assert.doesNotMatch(csp, /script-src/, url);
          assert.match(response.headers.get('cache-control') ?? '', /max-age=\d+/, url);
          assert.doesNotMatch(response.headers.get('cache-control') ?? '', /no-store/, url);
          const svg = await response.text();
          assert.ok(svg.length < 2048, `${url}: a small icon`);
          const names = assertPlainSvg(svg, url);
          assert.ok(names.includes('rect') && names.includes('text'), `${url}: a square and an initial`);
          assert.ok(shown(svg).includes(provider.displayName.charAt(0)), `${url}: shows the initial`);
          bodies.push(svg);
        }
        assert.notEqual(bodies[0], bodies[1], `${provider.name}: the dark icon differs`);
      }
    });

    // A light UI gets a square of the brand's colour; a dark UI a dark square ringed in it, so that a dark brand
    // colour still shows. The initial is drawn in a light ink on both.
    it("paints each icon with real colours: the brand's square, or a dark square ringed in the brand's colour", async () => {
      for (const provider of PROVIDERS) {
        const get = async (dark: boolean) => {
          const url = `${info.url}/media/${provider.name}${dark ? '-dark' : ''}.svg`;
          const svg = await (await fetch(url)).text();
          return { url, square: attributesOf(svg, 'rect'), initial: attributesOf(svg, 'text') };
        };
        const light = await get(false);
        const dark = await get(true);
        const brand = colour(light.square.fill, `${light.url}: the square`);
        assert.equal(light.square.stroke, undefined, `${light.url}: no ring on a light UI`);
        const ground = colour(dark.square.fill, `${dark.url}: the square`);
        assert.ok(luminance(ground) < 0.05, `${dark.url}: a dark square (${ground})`);
        assert.equal(
          colour(dark.square.stroke, `${dark.url}: the ring`),
          brand,
          `${dark.url}: ringed in the brand's colour`,
        );
        assert.ok(Number(dark.square['stroke-width']) > 0, `${dark.url}: a ring that shows`);
        for (const [{ url, initial }, behind] of [
          [light, brand],
          [dark, ground],
        ] as const) {
          const ink = colour(initial.fill, `${url}: the initial`);
          assert.notEqual(ink, behind, `${url}: the initial shows on its square`);
          assert.ok(luminance(ink) > 0.8, `${url}: the initial in a light ink (${ink})`);
        }
      }
    });

    it("draws as each icon's initial the first letter of the display name, upper-cased", async () => {
      for (const provider of PROVIDERS) {
        for (const suffix of ['', '-dark']) {
          const svg = await (await fetch(`${info.url}/media/${provider.name}${suffix}.svg`)).text();
          const drawn = /<text\s[^>]*>([^<]*)<\/text>/.exec(svg);
          assert.ok(drawn, `${provider.name}${suffix}: draws a text`);
          assert.equal(drawn[1], provider.displayName.charAt(0).toUpperCase(), `${provider.name}${suffix}`);
          assert.match(drawn[1], /^\p{Lu}$/u, `${provider.name}${suffix}: one capital letter`);
        }
      }
    });

    // The element shows the icon on the app's origin, not the emulator's: a page isolated with
    // Cross-Origin-Embedder-Policy: require-corp loads it only when it says it may be embedded anywhere.
    it('lets pages of any origin embed the icons: Cross-Origin-Resource-Policy cross-origin', async () => {
      for (const path of ['/media/hubspot.svg', '/media/hubspot-dark.svg']) {
        const response = await fetch(`${info.url}${path}`);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin', path);
      }
    });

    it('answers HEAD with the headers of GET and no body, also through handle()', async () => {
      const url = `${info.url}/media/slack-dark.svg`;
      const answered = await emulator.handle(new Request(url, { method: 'HEAD' }));
      assert.equal(answered.status, 200);
      assert.equal(answered.headers.get('content-type'), 'image/svg+xml');
      assert.equal(answered.body, null, 'no body to a HEAD');
      const get = await fetch(url);
      const head = await fetch(url, { method: 'HEAD' });
      for (const name of ['content-type', 'cache-control', 'content-security-policy', 'cross-origin-resource-policy'])
        assert.equal(head.headers.get(name), get.headers.get(name), name);
      await get.body?.cancel();
    });

    it('answers HEAD, refuses other methods with 405, and an unknown icon with a 404 problem', async () => {
      const head = await fetch(`${info.url}/media/slack.svg`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-type'), 'image/svg+xml');
      const post = await fetch(`${info.url}/media/slack.svg`, { method: 'POST' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      for (const path of ['/media/myspace.svg', '/media/slack.png', '/media/slack-light.svg', '/media/']) {
        const response = await fetch(`${info.url}${path}`);
        assert.equal(response.status, 404, path);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
      }
    });

    it("answers a 404 problem naming the path to an icon's name with more text before or after it", async () => {
      for (const path of [
        '/media/slack.svg.png',
        '/media/slack.svgz',
        '/media/slack-dark.svg/',
        '/media/old/media/slack.svg',
        '/media/x/slack-dark.svg',
      ]) {
        const response = await fetch(`${info.url}${path}`);
        assert.equal(response.status, 404, path);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
        const problem = await response.json();
        assert.equal(problem.status, 404, path);
        assert.ok(String(problem.detail).includes(path), `${path}: the detail names it (${problem.detail})`);
      }
    });

    it("claims only its icons' paths when mounted in another server", () => {
      assert.equal(ownsPath('/media/hubspot.svg'), true);
      assert.equal(ownsPath('/media/hubspot-dark.svg'), true);
      assert.equal(ownsPath('/media/myspace.svg'), false);
      assert.equal(ownsPath('/media/logo.png'), false);
      assert.equal(ownsPath('/media'), false);
      // The host's own files whose names merely hold an icon's path are the host's.
      assert.equal(ownsPath('/static/media/hubspot.svg'), false);
      assert.equal(ownsPath('/media/hubspot.svg.map'), false);
      assert.equal(ownsPath('/media/hubspot-dark.svg.gz'), false);
    });
  });

  describe('what oauth-connect needs before the popup', () => {
    it('answers what Zendesk and NetSuite need in get-provider, and that Salesforce needs neither', async () => {
      const get = async (name: string) => (await contract.fetch(`${info.baseUrl}/providers/${name}`)).json();
      const zendesk = await get('zendesk');
      assert.equal(zendesk.oauth2Opts.explicitWorkspaceRequired, true);
      assert.equal(zendesk.metadata?.input, undefined);
      const netsuite = await get('netsuite');
      assert.equal(netsuite.displayName, 'NetSuite');
      assert.equal(netsuite.oauth2Opts.explicitWorkspaceRequired, false);
      assert.equal(netsuite.metadata.input.length, 1);
      const [accountId] = netsuite.metadata.input;
      assert.equal(accountId.name, 'accountId');
      assert.equal(accountId.displayName, 'Account ID');
      assert.match(accountId.prompt, /\S/);
      assert.equal(new URL(accountId.docsURL).protocol, 'https:');
      const salesforce = await get('salesforce');
      assert.equal(salesforce.oauth2Opts.explicitWorkspaceRequired, false);
      assert.equal(salesforce.metadata?.input, undefined);
      assert.ok(!salesforce.oauth2Opts.authURL.includes('{{'), 'its generic login serves any org');
    });

    // A client that finds metadata looks in it for what to ask the user and what the connector learns: an empty
    // one would be a step with nothing in it.
    it('answers metadata only for a provider with something to ask or learn, never an empty one', async () => {
      const kinds = new Set<string>();
      for (const provider of PROVIDERS) {
        const answer = await (await contract.fetch(`${info.baseUrl}/providers/${provider.name}`)).json();
        if (!('metadata' in answer)) continue;
        const lists = Object.entries(answer.metadata as Record<string, unknown[]>);
        assert.ok(lists.length > 0, `${provider.name}: metadata holds something`);
        for (const [kind, items] of lists) {
          assert.ok(items.length > 0, `${provider.name}: metadata.${kind} lists something`);
          kinds.add(kind);
        }
      }
      assert.deepEqual([...kinds].sort(), ['input', 'postAuthentication'], 'both kinds appear in the catalog');
      const slack = await (await contract.fetch(`${info.baseUrl}/providers/slack`)).json();
      assert.equal('metadata' in slack, false, 'slack needs nothing: no metadata');
    });

    it('refuses Zendesk without a workspace: 400, one issue named providerWorkspaceRef', async () => {
      await assertRefused(await connect({ provider: 'zendesk' }), 'providerWorkspaceRef', 'none');
      await assertRefused(
        await connect({ provider: 'zendesk', providerWorkspaceRef: '' }),
        'providerWorkspaceRef',
        '""',
      );
      await assertRefused(
        await connect({ provider: 'zendesk', providerWorkspaceRef: '  ' }),
        'providerWorkspaceRef',
        'blank',
      );
      assert.equal((await connect({ provider: 'zendesk', providerWorkspaceRef: 'acme' })).status, 200);
    });

    it('refuses NetSuite without its account ID: 400, one issue named providerMetadata.accountId', async () => {
      const name = 'providerMetadata.accountId';
      for (const providerMetadata of [
        undefined,
        {},
        { accountId: null },
        { accountId: '12345' },
        { accountId: {} },
        { accountId: { value: '' } },
        { accountId: { value: ' ' } },
        { accountId: { value: 12345 } },
        { accountid: { value: '12345' } },
      ]) {
        await assertRefused(
          await connect({ provider: 'netsuite', ...(providerMetadata ? { providerMetadata } : {}) }),
          name,
          JSON.stringify(providerMetadata),
        );
      }
      // A workspace does not stand in for the account ID.
      await assertRefused(await connect({ provider: 'netsuite', providerWorkspaceRef: '12345' }), name, 'workspace');
      const ok = await connect({
        provider: 'netsuite',
        providerMetadata: { accountId: { value: '12345', source: 'input' } },
      });
      assert.equal(ok.status, 200);
    });

    it("says in the detail which provider lacks its one input, by the input's display name", async () => {
      const zendesk = await (await connect({ provider: 'zendesk' })).json();
      assert.equal(
        zendesk.detail,
        'Zendesk: providerWorkspaceRef is required: this provider needs its workspace before the OAuth flow',
      );
      const netsuite = await (await connect({ provider: 'netsuite' })).json();
      assert.equal(
        netsuite.detail,
        'NetSuite: providerMetadata.accountId.value is required: Account ID, a non-empty string',
      );
      assert.equal(
        netsuite.issues[0].detail,
        'providerMetadata.accountId.value is required: Account ID, a non-empty string',
      );
    });

    it('connects Salesforce with neither a workspace nor metadata', async () => {
      const response = await connect({ provider: 'salesforce', groupRef: 'sf' });
      assert.equal(response.status, 200);
      assert.ok(await allow(await response.json()));
    });
  });

  describe('the consent page', () => {
    it('shows the workspace and metadata it was given, as text', async () => {
      const zendesk = await (
        await connect({ provider: 'zendesk', groupRef: 'desk', providerWorkspaceRef: 'acme' })
      ).json();
      const deskPage = await (await fetch(zendesk)).text();
      assert.equal(row(deskPage, 'Workspace'), 'acme');

      const netsuite = await (
        await connect({
          provider: 'netsuite',
          groupRef: 'suite',
          providerMetadata: { accountId: { value: '12345', source: 'input' }, '<i>extra</i>': { value: '<b>x</b>' } },
        })
      ).json();
      const suitePage = await (await fetch(netsuite)).text();
      assert.equal(row(suitePage, 'Account ID'), '12345', 'under the input item’s display name');
      assert.equal(row(suitePage, '<i>extra</i>'), '<b>x</b>', 'other metadata under its key, escaped');
      assert.ok(!suitePage.includes('<b>x'), 'no markup from the request');
      assert.equal(row(suitePage, 'Workspace'), undefined, 'no workspace row without a workspace');

      const plain = await (await connect({ provider: 'slack', groupRef: 'plain' })).json();
      const plainPage = await (await fetch(plain)).text();
      assert.equal(row(plainPage, 'Workspace'), undefined);
      assert.equal(row(plainPage, 'Account ID'), undefined);
    });

    it("shows on an update the connection's workspace and metadata, which it keeps", async () => {
      const id = await allow(
        await (
          await connect({
            provider: 'netsuite',
            groupRef: 'suite-update',
            providerMetadata: { accountId: { value: 'TSTDRV42', source: 'input' } },
          })
        ).json(),
      );
      const update = await contract.fetch(`${info.baseUrl}/projects/demo/connections/${id}:oauth-update`, {
        method: 'PATCH',
        headers: KEY,
      });
      const page = await (await fetch(await update.json())).text();
      assert.equal(row(page, 'Account ID'), 'TSTDRV42');
    });
  });
});
