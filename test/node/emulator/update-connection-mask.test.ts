// Rule: update connection changes exactly the fields updateMask names (each once, among providerWorkspaceRef,
// providerMetadata and the credential kinds), each of which `connection` must hold; new credentials set the
// connection `created` and verify it again; a change of workspace alone leaves its status. Broken on purpose once:
// the handler setting every credential `connection` holds, named or not (the unnamed key then changed); the
// absent-field check dropped; the workspace set whether named or not; the update time left alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { credentialSuite, DELAY } from '../helpers/credential-connections.js';

describe('update connection: the updateMask rule', () => {
  const { clock, generate, update, read } = credentialSuite();
  const apollo = async (groupRef: string) => {
    const made = await (await generate({ provider: 'apollo', groupRef, apiKey: 'first-key' })).json();
    clock.advance(DELAY);
    return made.id as string;
  };
  const issueNames = async (response: Response) => {
    assert.equal(response.status, 400);
    return (await response.json()).issues.map((i: { name: string }) => i.name);
  };

  it('changes the credential updateMask names: 200, created, then verified again', async () => {
    const id = await apollo('mask-key');
    const response = await update(id, { updateMask: ['apiKey'], connection: { apiKey: 'second-key' } });
    assert.equal(response.status, 200);
    const changed = await response.json();
    assert.deepEqual([changed.id, changed.status], [id, 'created']);
    assert.equal((await read(id, '?includeCreds=true')).apiKey, 'second-key');
    clock.advance(DELAY);
    assert.equal((await read(id)).status, 'working');
  });

  it('leaves alone what updateMask does not name, even when connection holds it', async () => {
    const id = await apollo('mask-unnamed');
    const response = await update(id, {
      updateMask: ['providerWorkspaceRef'],
      connection: { providerWorkspaceRef: 'acme', apiKey: 'not-named-key' },
    });
    assert.equal(response.status, 200);
    const changed = await response.json();
    assert.equal(changed.providerWorkspaceRef, 'acme');
    assert.equal(changed.status, 'working', 'no new credential: no new verification');
    assert.equal((await read(id, '?includeCreds=true')).apiKey, 'first-key');
  });

  it('changes providerMetadata when named', async () => {
    const id = await apollo('mask-metadata');
    const metadata = { region: { value: 'eu', source: 'input' } };
    const response = await update(id, { updateMask: ['providerMetadata'], connection: { providerMetadata: metadata } });
    assert.deepEqual((await response.json()).providerMetadata, metadata);
  });

  it('refuses a field updateMask names that connection does not hold: 400 naming connection.<field>', async () => {
    const id = await apollo('mask-absent');
    const response = await update(id, { updateMask: ['apiKey'], connection: { providerWorkspaceRef: 'x' } });
    assert.equal(response.status, 400);
    const problem = await response.json();
    assert.equal(problem.detail, 'updateMask names apiKey, which connection does not hold');
    assert.deepEqual(problem.issues, [
      { detail: 'connection.apiKey is named in updateMask: give its new value', in: 'body', name: 'connection.apiKey' },
    ]);
    assert.equal((await read(id, '?includeCreds=true')).apiKey, 'first-key', 'nothing changed');
    const both = await update(id, { updateMask: ['apiKey', 'providerWorkspaceRef'], connection: {} });
    assert.equal(both.status, 400);
    const named = await both.json();
    assert.equal(named.detail, 'updateMask names apiKey, providerWorkspaceRef, which connection does not hold');
    assert.deepEqual(
      named.issues.map((i: { name: string }) => i.name),
      ['connection.apiKey', 'connection.providerWorkspaceRef'],
    );
  });

  it('keeps the workspace and metadata a credential update does not name; a workspace change alone is dated', async () => {
    const metadata = { region: { value: 'eu', source: 'input' } };
    const made = await generate({
      provider: 'apollo',
      groupRef: 'mask-keeps',
      apiKey: 'first-key',
      providerWorkspaceRef: 'acme',
      providerMetadata: metadata,
    });
    const { id } = await made.json();
    clock.advance(DELAY);
    const changed = await (await update(id, { updateMask: ['apiKey'], connection: { apiKey: 'second-key' } })).json();
    assert.deepEqual([changed.providerWorkspaceRef, changed.providerMetadata], ['acme', metadata]);
    clock.advance(DELAY);
    const before = (await read(id)).updateTime;
    clock.advance(60_000);
    const moved = await (
      await update(id, { updateMask: ['providerWorkspaceRef'], connection: { providerWorkspaceRef: 'globex' } })
    ).json();
    assert.equal(moved.providerWorkspaceRef, 'globex');
    assert.equal(Date.parse(moved.updateTime) - Date.parse(before), 60_000);
  });

  it('refuses an empty updateMask, a name outside its list and a name given twice: 400 naming updateMask', async () => {
    const id = await apollo('mask-bad');
    assert.deepEqual(await issueNames(await update(id, { updateMask: [], connection: {} })), ['updateMask']);
    assert.deepEqual(
      await issueNames(await update(id, { updateMask: ['status'], connection: { status: 'working' } })),
      ['updateMask[0]'],
    );
    assert.deepEqual(
      await issueNames(await update(id, { updateMask: ['apiKey', 'apiKey'], connection: { apiKey: 'k' } })),
      ['updateMask'],
    );
    assert.deepEqual(await issueNames(await update(id, { connection: { apiKey: 'k' } })), ['updateMask']);
  });

  it('answers 404 for a connection the project does not have', async () => {
    const response = await update('conn_nope', { updateMask: ['apiKey'], connection: { apiKey: 'k' } });
    assert.equal(response.status, 404);
  });
});
