// The OpenAPI document as the emulator's source of truth: routes, auth
// schemes and request/response validation all come from src/api/openapi.yaml.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { ProblemIssue } from '../shared/types.js';
import { CREDENTIAL_KINDS } from '../shared/sign-in.js';
import { jsonFits, LIMITS } from './limits.js';

// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

type Json = Record<string, unknown>;

export interface OperationInfo {
  operationId: string;
  method: string;
  template: string;
  /** 'base' for {base_url} (/v1), 'search' for {search_url} (/search/v1). */
  server: 'base' | 'search';
  /** Whether an API key in X-Api-Key is accepted. */
  apiKey: boolean;
  /** Whether a Bearer JWT is accepted. (Neither: a public operation.) */
  bearer: boolean;
  hasBody: boolean;
  pathParams: string[];
  match(path: string): Record<string, string> | null;
  validateParams(
    path: Record<string, string>,
    query: URLSearchParams,
  ): { path: Json; query: Json; issues: ProblemIssue[] };
  /**
   * The body's schema problems: the first LIMITS.problemIssues `issues` of `total`. A body larger than
   * LIMITS.allErrorsBytes as JSON is checked only up to its first problem (`complete` false).
   */
  validateBody(body: unknown): { issues: ProblemIssue[]; total: number; complete: boolean };
}

const SCHEMA_ID = 'urn:connect-provider:openapi:schema:';

export function loadDocument(): Json {
  const text = readFileSync(new URL('../api/openapi.yaml', import.meta.url), 'utf8');
  return parse(text) as Json;
}

/** Rewrites the document's local schema refs to the ids under which they are registered. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        out[key] = SCHEMA_ID + inner.slice('#/components/schemas/'.length);
      } else {
        out[key] = rewriteRefs(inner);
      }
    }
    return out;
  }
  return value;
}

function newAjv(coerceTypes: boolean, schemas: Json, allErrors = true): Ajv2020 {
  // validateSchema: false, since checking each schema against JSON Schema's meta-schema cost half a second per
  // process; openapi.test.ts checks the document's schemas against it once.
  const ajv = new Ajv2020({
    allErrors,
    strictTypes: false,
    coerceTypes,
    useDefaults: false,
    validateSchema: false,
  });
  addFormats(ajv); // uri, email, date-time and int32: the formats openapi.yaml uses
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(rewriteRefs(schema) as Json, SCHEMA_ID + name);
  }
  return ajv;
}

/** A validator compiled on its first call, with `compile()` to compile it at once. */
type LazyValidator = ValidateFunction & { compile(): void };

/**
 * A validator compiled on its first call: a process that starts an emulator pays only for the operations it
 * serves (compiling all of them took most of createEmulator's time, which every test file paid). The contract's
 * `compileAll()` compiles every one, so a schema that does not compile fails a test, not a request.
 */
function compiledOnUse(ajv: Ajv2020, schema: Json, all: LazyValidator[]): LazyValidator {
  let compiled: ValidateFunction | undefined;
  const compile = () => (compiled ??= ajv.compile(schema));
  const validate = ((data: unknown) => {
    const valid = compile()(data);
    validate.errors = compile().errors;
    return valid;
  }) as LazyValidator;
  validate.compile = compile;
  all.push(validate);
  return validate;
}

function resolve(doc: Json, value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== 'string') return value;
  let target: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Json)[part];
  return resolve(doc, target as Json);
}

/**
 * The body fields that carry a credential (generate connection's and update connection's): an issue about anything
 * inside one names it but never echoes its value, so no problem repeats a secret.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(CREDENTIAL_KINDS);

/**
 * Whether an issue of the body may echo its value: never one inside a SECRET_FIELDS field; for the body itself or its
 * `connection` (which hold generate and update connection's credentials), only a number, a boolean or null, never a
 * string, array or object that may be or hold one.
 */
function mayEcho(parts: string[], value: unknown): boolean {
  if (parts.some((p) => SECRET_FIELDS.has(p))) return false;
  const holdsCredentials = parts.length === 0 || (parts.length === 1 && parts[0] === 'connection');
  return !holdsCredentials || value === null || typeof value === 'number' || typeof value === 'boolean';
}

/** Turns ajv's errors into Problem Details issues (no value that may be a credential: see mayEcho). */
export function toIssues(errors: ErrorObject[] | null | undefined, where: string, data: unknown): ProblemIssue[] {
  if (!errors) return [];
  const issues: ProblemIssue[] = [];
  for (const error of errors) {
    const parts = error.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let value: unknown = data;
    for (const part of parts) value = value == null ? undefined : (value as Json)[part];
    let hasValue = true;
    if (error.keyword === 'required') {
      parts.push(String(error.params.missingProperty));
      hasValue = false;
    } else if (error.keyword === 'additionalProperties') {
      parts.push(String(error.params.additionalProperty));
      value = (value as Json | undefined)?.[String(error.params.additionalProperty)];
    }
    const name = parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
    let message = error.keyword === 'required' ? 'is required' : (error.message ?? 'is invalid');
    if (error.keyword === 'enum') message += `: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    if (error.keyword === 'additionalProperties') message = 'is not a known property';
    const issue: ProblemIssue = {
      type: 'about:blank',
      detail: name ? `${name} ${message}` : message,
      in: where,
      name: name || '(root)',
    };
    if (hasValue && (where !== 'body' || mayEcho(parts, value))) issue.value = value;
    issues.push(issue);
  }
  return issues;
}

export interface Contract {
  doc: Json;
  operations: OperationInfo[];
  /** Compiles every validator now (they compile on first use); throws as ajv does; returns how many. */
  compileAll(): number;
  /** Errors of a response against the document; empty when it conforms. */
  validateResponse(operationId: string, status: number, contentType: string | null, body: unknown): string[];
}

let cached: Contract | undefined;

/** Parses the document and compiles its validators once per process. */
export function loadContract(): Contract {
  if (cached) return cached;
  const doc = loadDocument();
  const components = doc.components as Json;
  const schemas = components.schemas as Json;
  const bodyAjv = newAjv(false, schemas);
  // Stops at a body's first problem: every body is checked with it first, so a large invalid body costs little.
  const firstAjv = newAjv(false, schemas, false);
  const paramAjv = newAjv(true, schemas);
  const globalSecurity = doc.security as Array<Json>;
  const operations: OperationInfo[] = [];
  const responseValidators = new Map<string, ValidateFunction>();
  const validators: LazyValidator[] = [];

  for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const operationId = op.operationId as string;
      const servers = op.servers as Array<{ url: string }> | undefined;
      const server = servers?.some((s) => s.url.includes('/search/')) ? 'search' : 'base';
      const security = (op.security as Array<Json> | undefined) ?? globalSecurity;
      const params = ((op.parameters as Json[] | undefined) ?? []).map((p) => resolve(doc, p));
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const objectSchema = (list: Json[]) => ({
        type: 'object',
        properties: Object.fromEntries(list.map((p) => [p.name, rewriteRefs(p.schema)])),
        required: list.filter((p) => p.required).map((p) => p.name),
      });
      const validatePath = compiledOnUse(paramAjv, objectSchema(pathParams), validators);
      const validateQuery = compiledOnUse(paramAjv, objectSchema(queryParams), validators);
      const bodySchema = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as
        Json | undefined;
      // Every problem of a body, and its first problem only: an operation with a body has both.
      const bodyValidators = bodySchema
        ? {
            all: compiledOnUse(bodyAjv, rewriteRefs(bodySchema.schema) as Json, validators),
            first: compiledOnUse(firstAjv, rewriteRefs(bodySchema.schema) as Json, validators),
          }
        : undefined;

      const names: string[] = [];
      const pattern = template
        .replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`))
        .replace(/\{(\w+)\}/g, (_m, name: string) => {
          names.push(name);
          return '([^/]+?)';
        });
      const regex = new RegExp(`^${pattern}$`);

      for (const [status, response] of Object.entries(op.responses as Json)) {
        const content = (resolve(doc, response as Json).content ?? {}) as Json;
        for (const [type, media] of Object.entries(content)) {
          responseValidators.set(
            `${operationId} ${status} ${type}`,
            compiledOnUse(bodyAjv, rewriteRefs((media as Json).schema) as Json, validators),
          );
        }
      }

      operations.push({
        operationId,
        method: method.toUpperCase(),
        template,
        server,
        apiKey: security.some((s) => 'APIKeyHeader' in s),
        bearer: security.some((s) => 'Bearer' in s),
        hasBody: Boolean(bodyValidators),
        pathParams: names,
        match(path) {
          const m = regex.exec(path);
          if (!m) return null;
          const out: Record<string, string> = {};
          names.forEach((name, i) => {
            try {
              out[name] = decodeURIComponent(m[i + 1]);
            } catch {
              out[name] = m[i + 1];
            }
          });
          return out;
        },
        validateParams(path, query) {
          const pathData: Json = { ...path };
          const queryData: Json = {};
          for (const p of queryParams) {
            const value = query.get(p.name as string);
            if (value !== null) queryData[p.name as string] = value;
          }
          const issues = [
            ...(validatePath(pathData) ? [] : toIssues(validatePath.errors, 'path', pathData)),
            ...(validateQuery(queryData) ? [] : toIssues(validateQuery.errors, 'query', queryData)),
          ];
          return { path: pathData, query: queryData, issues };
        },
        validateBody(body) {
          if (!bodyValidators || bodyValidators.first(body)) return { issues: [], total: 0, complete: true };
          if (!jsonFits(body, LIMITS.allErrorsBytes)) {
            return { issues: toIssues(bodyValidators.first.errors, 'body', body), total: 1, complete: false };
          }
          bodyValidators.all(body);
          const errors = bodyValidators.all.errors ?? [];
          return {
            issues: toIssues(errors.slice(0, LIMITS.problemIssues), 'body', body),
            total: errors.length,
            complete: true,
          };
        },
      });
    }
  }

  cached = {
    doc,
    operations,
    compileAll() {
      for (const validator of validators) validator.compile();
      return validators.length;
    },
    validateResponse(operationId, status, contentType, body) {
      const type = (contentType ?? '').split(';')[0].trim();
      if (status === 204) return body === undefined || body === '' ? [] : ['a 204 answer has a body'];
      const validate =
        responseValidators.get(`${operationId} ${status} ${type}`) ??
        responseValidators.get(`${operationId} default ${type}`);
      if (!validate) return [`${operationId} has no response ${status} with content type ${type || '(none)'}`];
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
    },
  };
  return cached;
}
