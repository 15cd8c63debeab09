// The emulator's seed data as the documentation lists it ("Seed data" in docs/emulator.md): tests read the
// expected org, project, app name and provider catalog from there, so the documentation cannot drift from the seed.
import assert from 'node:assert/strict';
import { documentation } from './readme.js';

/** README.md and docs/*.md, one after the other: the "Seed data" list is in one of them. */
const docs = [...documentation().values()].join('\n');

/** The "Seed data" list of docs/emulator.md, on one line. */
const seedSection = (() => {
  const start = docs.indexOf('**Seed data**');
  const end = docs.indexOf('**Operations beyond the seed.**', start);
  assert.ok(start >= 0 && end > start, 'the documentation has its "Seed data" list');
  return docs.slice(start, end).replace(/\s+/g, ' ');
})();

/** The captures of what the seed list documents; fails when the documentation no longer says it. */
export function documented(pattern: RegExp): string[] {
  const match = pattern.exec(seedSection);
  assert.ok(match, `the documented seed list says ${pattern}`);
  return match.slice(1);
}

/** The org and project the documentation names: the project's app name is what its consent pages name. */
export const [ORG, PROJECT_ID, PROJECT_NAME, APP_NAME] = documented(
  /org `(\w+)`; project `(\w+)`, name `(\w+)`, app name `([^`]+)`;/,
);

/** The provider names the documentation lists as the catalog. */
export const DOCUMENTED_PROVIDERS = documented(
  /the provider catalog: ([A-Za-z, ]+)\. Any other provider is a 400\./,
)[0].split(', ');

/** The integrations the documentation lists besides int_demo (the other providers the demo shows). */
export const DOCUMENTED_DEMO_INTEGRATIONS = documented(
  /integrations of the other providers the demo shows, [^:]*: ([`\w, ]+);/,
)[0]
  .split(', ')
  .map((id) => id.replaceAll('`', ''));
