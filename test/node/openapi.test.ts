// src/api/openapi.yaml, the one source of the API's types and of the emulator's validation: a valid OpenAPI 3.1
// document that holds the spec's operations, and the generated src/shared/schema.ts up to date with it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { generateSchemaTypes } from '../../scripts/gen-types.mjs';
import { loadContract } from '../../src/emulator/openapi.js';

const sourceUrl = new URL('../../src/api/openapi.yaml', import.meta.url);
const source = readFileSync(sourceUrl, 'utf8');
const doc = parse(source);

type Operation = {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
  'x-beyond-seed'?: boolean;
};
const operations: Array<Operation & { method: string; path: string }> = [];
for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
  for (const [method, op] of Object.entries(item)) operations.push({ ...op, method, path });
}

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (Redocly recommended rules, no error or warning)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: sourceUrl.pathname, config });
    const errors = problems; // errors and warnings alike
    assert.deepEqual(
      errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
      [],
    );
    assert.equal(doc.openapi, '3.1.0');
  });

  // The emulator compiles these schemas without checking them against the meta-schema (src/emulator/openapi.ts).
  it("has only schemas that JSON Schema 2020-12's meta-schema accepts", () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas: Array<[string, unknown]> = Object.entries(doc.components.schemas);
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) value.forEach((inner, i) => walk(inner, `${where}/${i}`));
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'schema') schemas.push([`${where}/schema`, inner]);
          else walk(inner, `${where}/${key}`);
        }
      }
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    assert.ok(schemas.length > 40, `only ${schemas.length} schemas found`);
    for (const [where, schema] of schemas) {
      assert.equal(ajv.validateSchema(schema as object), true, `${where}: ${ajv.errorsText(ajv.errors)}`);
    }
  });

  it('compiles into every validator the emulator uses, with its own options (they compile on first use)', () => {
    // Path, query and body of each operation, and each response body: well over a hundred.
    assert.ok(loadContract().compileAll() > 100);
  });

  // The client passes path parameters to openapi-fetch's default serializer (src/api/client.ts), which expects these.
  it('names every path parameter as a plain {name} of style simple, declared once per operation', () => {
    for (const op of operations) {
      const names = [...op.path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
      for (const name of names) assert.match(name, /^\w+$/, `${op.path}: {${name}}`);
      const params = ((op as { parameters?: Array<{ $ref?: string; in?: string; style?: string }> }).parameters ?? [])
        .map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p))
        .filter((p) => p.in === 'path');
      assert.deepEqual(params.map((p: { name: string }) => p.name).sort(), [...names].sort(), op.path);
      for (const p of params) assert.ok(p.style === undefined || p.style === 'simple', `${op.path}: ${p.name}`);
    }
  });

  it('describes the 13 operations of the spec, and marks every other one as beyond the seed', () => {
    assert.deepEqual(
      operations
        .filter((o) => !o['x-beyond-seed'])
        .map((o) => o.operationId)
        .sort(),
      [
        'createNotificationEventTopicRoute',
        'createProject',
        'deleteDestination',
        'deleteIntegration',
        'deleteTopic',
        'getConnection',
        'listDestinations',
        'listInvites',
        'listNotificationEventTopicRoutes',
        'listTopicDestinationRoutes',
        'oauthConnect',
        'oauthUpdate',
        'searchRecords',
      ],
    );
    const beyond = operations.filter((o) => o['x-beyond-seed']);
    assert.deepEqual(beyond.map((o) => o.operationId).sort(), [
      'deleteConnection',
      'generateConnection',
      'getProject',
      'getProvider',
      'listConnections',
      'listIntegrations',
      'listProviderApps',
      'updateConnection',
    ]);
    for (const op of beyond)
      assert.match(String((op as { description?: string }).description), /beyond the seed/i, op.operationId);
  });

  // The emulator's auth comes from these security lists: pin them here, so that dropping one is caught.
  it('accepts Bearer exactly where the spec (and, beyond the seed, the real service) allows it', () => {
    const schemes = (o: Operation) => (o.security ?? doc.security) as Array<Record<string, string[]>>;
    const withBearer = operations
      .filter((o) => schemes(o).some((s) => 'Bearer' in s))
      .map((o) => o.operationId)
      .sort();
    assert.deepEqual(withBearer, [
      'createNotificationEventTopicRoute',
      'createProject',
      'deleteConnection',
      'generateConnection',
      'getProject',
      'listConnections',
      'listIntegrations',
      'listInvites',
      'listNotificationEventTopicRoutes',
      'listProviderApps',
      'updateConnection',
    ]);
    const public_ = operations.filter((o) => schemes(o).length === 0).map((o) => o.operationId);
    assert.deepEqual(public_, ['getProvider'], 'only get provider needs no credential');
    for (const op of operations) {
      if (op.operationId === 'getProvider') continue;
      assert.ok(
        schemes(op).length > 0 && schemes(op).every((s) => 'APIKeyHeader' in s || 'Bearer' in s),
        op.operationId,
      );
      assert.ok(
        schemes(op).some((s) => 'APIKeyHeader' in s),
        op.operationId,
      );
    }
  });

  it('gives every operation a Problem Details error answer', () => {
    for (const op of operations) {
      assert.ok(op.responses.default, `${op.operationId} has a default error response`);
    }
  });

  it('uses the real service query names for get-connection and route filters', () => {
    const names = (path: string, method: string) =>
      (doc.paths[path][method].parameters as Array<{ name?: string; $ref?: string }>).map((p) => p.name ?? p.$ref);
    assert.deepEqual(names('/projects/{projectIdOrName}/connections/{connectionId}', 'get').slice(2), [
      'includeCreds',
      'includeRefreshToken',
      'refresh',
    ]);
    assert.deepEqual(names('/projects/{projectIdOrName}/notification-event-topic-routes', 'get').slice(1), [
      'topicId',
      'eventType',
    ]);
  });
});

describe('src/shared/schema.ts', () => {
  it('is up to date with openapi.yaml (run npm run gen:types)', async () => {
    const committed = readFileSync(new URL('../../src/shared/schema.ts', import.meta.url), 'utf8');
    assert.equal(committed, await generateSchemaTypes(), 'src/shared/schema.ts is stale: run npm run gen:types');
  });
});
