// What the popup shows: the consent page and the callback page as a browser reads them, under their CSP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { callbackPage, type CompletionMessage } from '../../../src/emulator/pages.js';
import { callbackOf, messageOf } from '../helpers/consent.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';
import { emulatorApi } from '../helpers/emulator.js';
import { cspNonce, element, row, shown } from '../helpers/pages.js';
import { APP_NAME } from '../helpers/seed-docs.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

describe('emulator popup pages', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let contract: ContractFetch;
  before(async () => {
    contract = contractFetch();
    emulator = createEmulator({ verifyDelay: 0, now: () => new Date(NOW) });
    info = await emulator.listen();
  });
  after(async () => {
    await emulator.close();
    assert.deepEqual(contract.violations, [], 'every answer validates against openapi.yaml');
  });
  // Every answer of an operation is checked against openapi.yaml on its way through.
  const api = emulatorApi(
    () => info,
    (url, init) => contract.fetch(url, init),
  );
  const json = async (path: string, init?: { method?: string; body?: unknown }) => {
    const response = await api(path, init);
    assert.equal(response.status, 200, path);
    return response.json();
  };

  describe('pages.ts: what the popup shows', () => {
    it('shows the consent page as text, styled only by its own nonce, with no script and nothing outside <main>', async () => {
      const groupName = `<b>"Tom" & 'Jerry'</b>`;
      const url: string = await json('/oauth-connect', {
        body: { projectId: 'demo', provider: 'slack', groupRef: 'pages', groupName, consumerRef: 'c' },
      });
      const response = await fetch(url);
      const page = await response.text();
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(row(page, 'Group'), `${groupName} (pages)`, 'the name shows as typed');
      assert.ok(!page.includes('<b>'), 'and is not markup');
      const slack = await json('/providers/slack');
      assert.equal(element(page, 'title'), `${slack.displayName}: authorize ${APP_NAME}`);
      const csp = response.headers.get('content-security-policy')!;
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      const style = /<style nonce="([^"]+)">([\s\S]*?)<\/style>/.exec(page);
      assert.ok(style, 'the page has its stylesheet');
      assert.equal(style[1], cspNonce(response, 'style-src'), 'which the CSP lets apply');
      assert.match(style[2], /\bmain\s*\{[^}]+\}/, 'and which lays the page out');
      assert.ok(!page.includes('<script'), 'the consent page runs no script');
      assert.match(page, /<\/main>\s*<\/body>/, 'nothing shows outside <main>');
    });

    it('lists on the consent page its own rows, then the workspace and each metadata item given, and nothing else', async () => {
      const url: string = await json('/oauth-connect', {
        body: {
          projectId: 'demo',
          provider: 'zendesk',
          groupRef: 'pages-list',
          consumerRef: 'c',
          providerWorkspaceRef: 'acme-desk',
          providerMetadata: { region: 'eu', tier: { value: 'gold' } },
        },
      });
      const page = await (await fetch(url)).text();
      const list = /<dl>([\s\S]*?)<\/dl>/.exec(page)![1];
      const rowPattern = /<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g;
      const rows = [...list.matchAll(rowPattern)].map(([, label, text]) => [shown(label), shown(text)]);
      assert.deepEqual(
        rows.map(([label]) => label),
        ['Provider', 'Group', 'User', 'Scopes', 'Workspace', 'region', 'tier'],
      );
      assert.deepEqual(rows.slice(4), [
        ['Workspace', 'acme-desk'],
        ['region', '"eu"'],
        ['tier', 'gold'],
      ]);
      assert.equal(list.replace(rowPattern, '').trim(), '', 'the list holds its rows only');
    });

    it('tells the user on the callback page whether the authorization succeeded, and runs only its own script', async () => {
      const pages: Record<string, { response: Response; page: string; message: CompletionMessage }> = {};
      for (const decision of ['allow', 'deny']) {
        const url: string = await json('/oauth-connect', {
          body: { projectId: 'demo', provider: 'notion', groupRef: `callback-${decision}`, consumerRef: 'c' },
        });
        const response = await callbackOf(url, decision);
        const page = await response.text();
        pages[decision] = { response, page, message: messageOf(page) };
      }
      const ok = pages.allow;
      assert.equal(ok.message.eventType, 'AUTHORIZATION_SUCCEEDED');
      for (const tag of ['title', 'h1', 'p']) {
        assert.match(element(ok.page, tag), /\w/, `success ${tag}`);
        assert.doesNotMatch(element(ok.page, tag), /fail|denied|error/i, `success ${tag}`);
      }
      const failed = pages.deny;
      assert.equal(failed.message.eventType, 'AUTHORIZATION_FAILED');
      assert.match(element(failed.page, 'title'), /failed/i);
      assert.match(element(failed.page, 'h1'), /failed/i);
      assert.equal(element(failed.page, 'p'), (failed.message.data as { error: string }).error, 'it says why');
      assert.notEqual(element(ok.page, 'h1'), element(failed.page, 'h1'));
      for (const { response, page } of [ok, failed]) {
        const script = /<script nonce="([^"]+)">/.exec(page);
        assert.ok(script);
        assert.equal(script[1], cspNonce(response, 'script-src'));
      }
    });

    // Only the module's own function reaches this: every message the emulator sends has plain text.
    it('puts the completion message into the callback script so no text in it can end the script', async () => {
      const error = `</script><script>alert("x")</script> <!-- & -->`;
      const message: CompletionMessage = { eventType: 'AUTHORIZATION_FAILED', data: { error } };
      const page = await callbackPage(message).text();
      const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(page)![1];
      assert.doesNotMatch(script, /[<>&]/);
      assert.deepEqual(messageOf(page), message, 'the opener receives the message unchanged');
      assert.equal(element(page, 'p'), error, 'and the page shows it as text');
    });
  });
});
