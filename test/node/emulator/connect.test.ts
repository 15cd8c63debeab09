// oauth-connect's body may name the project by the real service's newer field, projectIdOrName
// (src/emulator/connect.ts): the operation's own step before validation (operations.ts's table), run for it alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connectBody, emulatorPerSuite, post } from '../helpers/emulator.js';

const suite = emulatorPerSuite();

/** POSTs `body` as JSON to a path of the emulator's API. */
const postTo = (path: string, body: unknown) => post(`${suite.info.baseUrl}${path}`, body);

describe('oauth-connect takes projectIdOrName for projectId', () => {
  it('when projectId is absent', async () => {
    const { projectId: _projectId, ...rest } = connectBody();
    const response = await postTo('/oauth-connect', { ...rest, projectIdOrName: 'demo' });
    assert.equal(response.status, 200);
  });

  it('not in place of a projectId that is there', async () => {
    const response = await postTo('/oauth-connect', { ...connectBody(), projectIdOrName: 'nope' });
    assert.equal(response.status, 200, 'projectId demo wins over projectIdOrName');
  });

  it('and no other operation does', async () => {
    const response = await postTo('/projects', {
      name: 'alias',
      appName: 'A',
      orgId: 'org_demo',
      projectIdOrName: 'demo',
    });
    assert.equal(response.status, 400);
    const names = (await response.json()).issues.map((issue: { name: string }) => issue.name);
    assert.deepEqual(names, ['projectIdOrName'], 'the one unknown property, and no projectId made from it');
  });

  it('and a body of null is a 400, not a failure', async () => {
    const response = await postTo('/oauth-connect', null);
    assert.equal(response.status, 400);
  });
});
