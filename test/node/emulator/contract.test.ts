// The contract (openapi.yaml) as the emulator applies it: a request matched to one operation, a request that breaks
// the schemas answered with issues a client can act on, and validateResponse reporting what does not conform.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadContract } from '../../../src/emulator/openapi.js';
import { literalLength } from '../../../src/emulator/dispatch.js';
import { emulatorPerSuite, KEY } from '../helpers/emulator.js';

const doc = parse(readFileSync(new URL('../../../src/api/openapi.yaml', import.meta.url), 'utf8'));
const schemas = doc.components.schemas;
/** The spec's default for an issue's type (RFC 9457's default problem type too). */
const ISSUE_TYPE: string = schemas.ProblemIssue.properties.type.default;

type Issue = { type: string; in: string; name: string; detail: string; value?: unknown };

/** A 400 problem's issues, after checking it is a validation problem whose detail sums them up. */
async function issuesOf(response: Response): Promise<Issue[]> {
  assert.equal(response.status, 400);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const problem = await response.json();
  const issues: Issue[] = problem.issues;
  assert.ok(Array.isArray(issues) && issues.length > 0, JSON.stringify(problem));
  const details = issues.map((i) => i.detail);
  assert.equal(problem.detail, details.length === 1 ? details[0] : `${details.length} problems: ${details.join('; ')}`);
  return issues;
}

describe('emulator contract', () => {
  const suite = emulatorPerSuite();

  const send = (url: string, method: string, body?: unknown) =>
    fetch(url, {
      method,
      headers: { ...KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createProject = (body: unknown) => send(`${suite.info.baseUrl}/projects`, 'POST', body);

  describe('the issues of a request that breaks the schemas', () => {
    it('names a missing body field, says it is required, and gives no value', async () => {
      const issues = await issuesOf(await createProject({ appName: 'App', name: 'ab' }));
      assert.deepEqual(issues, [{ type: ISSUE_TYPE, detail: 'orgId is required', in: 'body', name: 'orgId' }]);
      assert.equal('value' in issues[0], false, 'a missing field has no value');
    });

    it('names each unknown body field as it was sent, with its value', async () => {
      // Names with digits at either end are still plain field names, not array indexes.
      const issues = await issuesOf(
        await createProject({ appName: 'App', name: 'ab', orgId: 'org_demo', x1: 1, '2fa': true }),
      );
      assert.deepEqual(issues, [
        { type: ISSUE_TYPE, detail: 'x1 is not a known property', in: 'body', name: 'x1', value: 1 },
        { type: ISSUE_TYPE, detail: '2fa is not a known property', in: 'body', name: '2fa', value: true },
      ]);
    });

    it("gives the rule a value breaks in the validator's words, with the pattern from the spec", async () => {
      const { pattern } = schemas.CreateProjectRequest.properties.name;
      const { minLength } = schemas.CreateProjectRequest.properties.appName;
      const issues = await issuesOf(await createProject({ appName: 'App', name: '-bad-', orgId: 'org_demo' }));
      assert.deepEqual(issues, [
        { type: ISSUE_TYPE, detail: `name must match pattern "${pattern}"`, in: 'body', name: 'name', value: '-bad-' },
      ]);
      const short = await issuesOf(await createProject({ appName: '', name: 'ab', orgId: 'org_demo' }));
      assert.deepEqual(short, [
        {
          type: ISSUE_TYPE,
          detail: `appName must NOT have fewer than ${minLength} characters`,
          in: 'body',
          name: 'appName',
          value: '',
        },
      ]);
    });

    it('lists the allowed values of an enum, in the order of the spec, for a query and a body field', async () => {
      const refresh = doc.paths['/projects/{projectIdOrName}/connections/{connectionId}'].get.parameters.find(
        (p: { name?: string }) => p.name === 'refresh',
      ).schema.enum;
      const query = await issuesOf(
        await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo?refresh=sometimes`, 'GET'),
      );
      assert.deepEqual(query, [
        {
          type: ISSUE_TYPE,
          detail: `refresh must be equal to one of the allowed values: ${refresh.join(', ')}`,
          in: 'query',
          name: 'refresh',
          value: 'sometimes',
        },
      ]);
      const body = await issuesOf(
        await send(`${suite.info.baseUrl}/projects/demo/notification-event-topic-routes`, 'POST', {
          eventType: 'read.triggered.done',
          topicId: 'topic_main',
        }),
      );
      assert.deepEqual(body, [
        {
          type: ISSUE_TYPE,
          detail: `eventType must be equal to one of the allowed values: ${schemas.NotificationEventTypeInput.enum.join(', ')}`,
          in: 'body',
          name: 'eventType',
          value: 'read.triggered.done',
        },
      ]);
    });

    it('names a field inside an array item by its index in brackets, past index 9 too', async () => {
      const filters: unknown[] = Array.from({ length: 11 }, (_, i) => ({
        fieldName: `f${i}`,
        operator: 'eq',
        value: '',
      }));
      filters[0] = { fieldName: 'f0', operator: 'eq' };
      filters[10] = { fieldName: 'f10', operator: 'ne', value: 'x' };
      const issues = await issuesOf(
        await send(`${suite.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, 'POST', {
          objectName: 'contact',
          fieldFilters: filters,
        }),
      );
      const operators = schemas.FieldFilter.properties.operator.enum.join(', ');
      assert.deepEqual(issues, [
        { type: ISSUE_TYPE, detail: 'fieldFilters[0].value is required', in: 'body', name: 'fieldFilters[0].value' },
        {
          type: ISSUE_TYPE,
          detail: `fieldFilters[10].operator must be equal to one of the allowed values: ${operators}`,
          in: 'body',
          name: 'fieldFilters[10].operator',
          value: 'ne',
        },
      ]);
    });

    it('refuses a body field of the wrong type as it was sent, never converting it, beside the other problems', async () => {
      // A number where the spec wants a string is not taken as its text: alone, it is the one problem...
      const alone = await issuesOf(await createProject({ appName: 123, name: 'ab', orgId: 'org_demo' }));
      assert.deepEqual(alone, [
        { type: ISSUE_TYPE, detail: 'appName must be string', in: 'body', name: 'appName', value: 123 },
      ]);
      // ...and beside another problem it is still listed, with the value the client sent.
      const { pattern } = schemas.CreateProjectRequest.properties.name;
      const both = await issuesOf(await createProject({ appName: 123, name: '-bad-', orgId: 'org_demo' }));
      assert.deepEqual(both, [
        { type: ISSUE_TYPE, detail: 'appName must be string', in: 'body', name: 'appName', value: 123 },
        { type: ISSUE_TYPE, detail: `name must match pattern "${pattern}"`, in: 'body', name: 'name', value: '-bad-' },
      ]);
    });

    it('names a required query parameter that is missing, in the query, with no value', async () => {
      const search = doc.paths['/projects/{projectIdOrName}/integrations/{integrationId}'].post;
      const groupRef = search.parameters.find((p: { name?: string }) => p.name === 'groupRef');
      assert.deepEqual([groupRef.in, groupRef.required], ['query', true]);
      const issues = await issuesOf(
        await send(`${suite.info.searchUrl}/projects/demo/integrations/int_demo`, 'POST', {
          objectName: 'contact',
          fieldFilters: [],
        }),
      );
      assert.deepEqual(issues, [{ type: ISSUE_TYPE, detail: 'groupRef is required', in: 'query', name: 'groupRef' }]);
    });

    it('names a body that is not an object (root), with the body as its value', async () => {
      const issues = await issuesOf(await createProject(42));
      assert.deepEqual(issues, [{ type: ISSUE_TYPE, detail: 'must be object', in: 'body', name: '(root)', value: 42 }]);
    });
  });

  describe('matching a request to an operation', () => {
    it('decodes a path segment, and takes one that is not valid percent-encoding as it was sent', async () => {
      // %64emo is demo: the project is found.
      assert.equal((await send(`${suite.info.baseUrl}/projects/%64emo/connections/conn_demo`, 'GET')).status, 200);
      // A malformed escape is no value to drop: the 404 names the segment exactly as the client sent it.
      const project = await send(`${suite.info.baseUrl}/projects/%E0%A4%A/connections/conn_demo`, 'GET');
      assert.equal(project.status, 404);
      assert.equal((await project.json()).detail, 'no project %E0%A4%A');
      const connection = await send(`${suite.info.baseUrl}/projects/demo/connections/%E0%A4%A`, 'GET');
      assert.equal(connection.status, 404);
      assert.equal((await connection.json()).detail, 'no connection %E0%A4%A in project demo');
    });

    // The emulator picks the operation whose method matches among those whose template matches the path; that
    // is unambiguous only while no path fits two templates of one method on one server.
    // Two templates match PATCH …/connections/x:oauth-update (oauth-update's, and update connection's with a
    // connection ID x:oauth-update): the more literal one names the operation, as the real service routes it.
    it('finds one operation per method for any path of the document: the only one, or the most literal', () => {
      const { operations } = loadContract();
      for (const op of operations) {
        const path = op.template.replace(/\{\w+\}/g, 'x');
        const same = operations.filter((o) => o.server === op.server && o.method === op.method && o.match(path));
        const others = same.filter((o) => o !== op);
        assert.ok(same.includes(op), `${op.method} ${path}`);
        for (const other of others) {
          assert.ok(
            literalLength(op) > literalLength(other),
            `${op.method} ${path}: ${op.operationId} over ${other.operationId}`,
          );
        }
      }
    });

    it('routes PATCH …:oauth-update to oauth-update, and PATCH of a connection to update connection', async () => {
      const oauth = await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo:oauth-update`, 'PATCH');
      assert.equal(oauth.status, 200);
      await oauth.body?.cancel();
      const update = await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo`, 'PATCH');
      // update connection takes a body: without one it is a 400 of its own validation, not oauth-update's URL.
      assert.equal(update.status, 400);
      await update.body?.cancel();
    });

    it('answers 405 with every method the spec declares for a path that two templates match', async () => {
      const declared = (template: string) => Object.keys(doc.paths[template]).map((m) => m.toUpperCase());
      const expected = [
        ...declared('/projects/{projectIdOrName}/connections/{connectionId}:oauth-update'),
        ...declared('/projects/{projectIdOrName}/connections/{connectionId}'),
      ].sort();
      const response = await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo:oauth-update`, 'POST');
      assert.equal(response.status, 405);
      assert.deepEqual(response.headers.get('allow')!.split(', ').sort(), [...new Set(expected)]);
      await response.body?.cancel();
    });
  });

  describe('validateResponse, which the contract tests run on every answer', () => {
    const { validateResponse } = loadContract();

    it('accepts a conforming answer, whatever parameters its media type carries', async () => {
      const response = await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo`, 'GET');
      const body = await response.json();
      assert.deepEqual(validateResponse('getConnection', 200, response.headers.get('content-type'), body), []);
      assert.deepEqual(validateResponse('getConnection', 200, 'application/json; charset=utf-8', body), []);
      assert.deepEqual(validateResponse('getConnection', 200, 'application/json ; charset=utf-8', body), []);
    });

    it('reports each part of a body that does not conform, by its JSON pointer', async () => {
      const body = await (await send(`${suite.info.baseUrl}/projects/demo/connections/conn_demo`, 'GET')).json();
      const statuses = schemas.ConnectionStatus.enum;
      assert.ok(!statuses.includes('nope'));
      assert.deepEqual(validateResponse('getConnection', 200, 'application/json', { ...body, status: 'nope' }), [
        '/status must be equal to one of the allowed values',
      ]);
      assert.deepEqual(validateResponse('getConnection', 200, 'application/json', 'conn_demo'), [
        '(root) must be object',
      ]);
    });

    it('checks an error answer against the default response when its status has none of its own', () => {
      const problem = { type: ISSUE_TYPE, title: 'Method Not Allowed', status: 405, detail: 'no' };
      assert.deepEqual(validateResponse('getConnection', 405, 'application/problem+json', problem), []);
      const { minimum } = schemas.Problem.properties.status;
      assert.deepEqual(
        validateResponse('getConnection', 405, 'application/problem+json', { ...problem, status: 200 }),
        [`/status must be >= ${minimum}`],
      );
    });

    it('refuses an answer of a status or media type the operation does not declare', () => {
      assert.deepEqual(validateResponse('getConnection', 200, 'text/html; charset=utf-8', '<p>hi</p>'), [
        'getConnection has no response 200 with content type text/html',
      ]);
      assert.deepEqual(validateResponse('getConnection', 200, null, 'x'), [
        'getConnection has no response 200 with content type (none)',
      ]);
    });

    it('accepts a 204 only without a body', () => {
      assert.deepEqual(validateResponse('deleteTopic', 204, null, undefined), []);
      assert.deepEqual(validateResponse('deleteTopic', 204, null, ''), []);
      assert.deepEqual(validateResponse('deleteTopic', 204, 'application/json', { id: 'topic_main' }), [
        'a 204 answer has a body',
      ]);
    });
  });
});
