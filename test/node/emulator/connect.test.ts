// oauth-connect's body may name the project by the real service's newer field, projectIdOrName
// (src/emulator/connect.ts): the operation's own step before validation (operations.ts's table), run for it alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connectBody, emulatorPerSuite, KEY } from '../helpers/emulator.js';

const suite = emulatorPerSuite();

const post = (path: string, body: string) =>
  fetch(`${suite.info.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json' },
    body,
  });

describe('oauth-connect takes projectIdOrName for projectId', () => {
  it('when projectId is absent', async () => {
    const { projectId: _projectId, ...rest } = connectBody();
    const response = await post('/oauth-connect', JSON.stringify({ ...rest, projectIdOrName: 'demo' }));
    assert.equal(response.status, 200);
  });

  it('not in place of a projectId that is there', async () => {
    const response = await post('/oauth-connect', JSON.stringify({ ...connectBody(), projectIdOrName: 'nope' }));
    assert.equal(response.status, 200, 'projectId demo wins over projectIdOrName');
  });

  it('and no other operation does', async () => {
    const response = await post(
      '/projects',
      JSON.stringify({ name: 'alias', appName: 'A', orgId: 'org_demo', projectIdOrName: 'demo' }),
    );
    assert.equal(response.status, 400);
    const names = (await response.json()).issues.map((issue: { name: string }) => issue.name);
    assert.deepEqual(names, ['projectIdOrName'], 'the one unknown property, and no projectId made from it');
  });

  it('and a body of null is a 400, not a failure', async () => {
    const response = await post('/oauth-connect', 'null');
    assert.equal(response.status, 400);
  });
});
