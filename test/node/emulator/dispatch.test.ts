// Rule: of two path templates that match a request, the more literal one names its operation, whatever their order in
// the document: PATCH …/connections/{id}:oauth-update is oauth-update, never update connection of an ID ending in
// ":oauth-update". (openapi.yaml happens to list oauth-update first, so the emulator's own tests cannot tell an
// order-dependent dispatcher from this one; here the document's operations are given in both orders.) Broken on
// purpose once: the sort by literal length removed (red in the reversed order) and reversed (red in both). How literal
// a template is counts its text and never its parameters' names: `/things/{aLongParameterName}` is less literal than
// `/things/mine` (broken once: parameters of one character only, or a name left in the count: red).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAuth } from '../../../src/emulator/auth.js';
import type { Env } from '../../../src/emulator/context.js';
import { createDispatch, literalLength } from '../../../src/emulator/dispatch.js';
import { loadContract } from '../../../src/emulator/openapi.js';
import { seedState } from '../../../src/emulator/seed.js';

describe('a path two templates match', () => {
  const contract = loadContract();
  const now = () => new Date('2026-11-27T12:00:00Z');

  for (const order of ['as the document lists them', 'in reverse'] as const) {
    it(`goes to the more literal one, with the operations ${order}`, async () => {
      const operations = order === 'in reverse' ? [...contract.operations].reverse() : contract.operations;
      const state = seedState();
      const dispatch = createDispatch({
        contract: { ...contract, operations },
        auth: createAuth({ apiKey: 'dev-api-key', secret: state.tokenSecret, now }),
        bodyLimit: 1024 * 1024,
        bodyDeadlineMs: 10_000,
        urlFormat: 'json',
      });
      const env = (): Env => ({
        state,
        now: now(),
        clock: now,
        publicOrigin: 'http://127.0.0.1:4010',
        verifyDelayMs: 0,
        bodyDeadlineMs: 10_000,
        changed: () => {},
        room: () => {},
      });
      const path = '/projects/demo/connections/conn_demo:oauth-update';
      const request = new Request(`http://127.0.0.1:4010/v1${path}`, {
        method: 'PATCH',
        headers: { 'x-api-key': 'dev-api-key' },
      });
      const response = await dispatch(request, path, 'base', env);
      assert.equal(response.status, 200, await response.clone().text());
      // oauth-update answers the consent URL to open, as a JSON string; update connection would want a body.
      const url = new URL((await response.json()) as string);
      assert.equal(url.origin, 'http://127.0.0.1:4010');
      assert.ok(
        state.consents.some((s) => s.connectionId === 'conn_demo'),
        'a consent link to update conn_demo',
      );
    });
  }

  it("counts a template's literal text, and none of its parameters' names", () => {
    assert.equal(literalLength({ template: '/things/{aLongParameterName}/parts/{id}' }), '/things//parts/'.length);
    assert.ok(
      literalLength({ template: '/things/{aLongParameterName}' }) < literalLength({ template: '/things/mine' }),
    );
  });
});
