// StrykerJS over the Node code, one area at a time (MUTATE_AREA=api|server|element|emulator),
// each with the Node test files that exercise it: the tap runner runs each test
// file with tsx, per-file coverage picks the files a mutant can fail, and the
// incremental file re-tests only mutants whose code or tests changed.
// Run through `npm run mutate [-- api server element emulator]` (scripts/mutate.mjs).
// An area with `parts` runs as one Stryker run per part (MUTATE_PART), each with its own report and incremental
// file: on a 2-core machine the emulator takes hours, and a part that finished is never lost to one that did not.
import { readdirSync } from 'node:fs';

/**
 * The test files of a folder but `except`: a test file added to the folder joins its area without an edit here (an
 * area's list written out by hand once missed two files for a round).
 */
function testsIn(folder, except = []) {
  const names = readdirSync(folder).filter((name) => name.endsWith('.test.ts'));
  const unknown = except.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`${folder} has no ${unknown.join(', ')} to leave out`);
  return names
    .filter((name) => !except.includes(name))
    .sort()
    .map((name) => `${folder}/${name}`);
}

export const AREAS = {
  api: {
    mutate: [
      'src/api/**/*.ts',
      'src/shared/**/*.ts',
      '!src/shared/schema.ts',
      '!src/shared/types.ts',
      // The JSON bounds, the URL rule and the provider's browser view: mutated with the server, whose tests
      // exercise them (the element's are browser tests, which Stryker does not run).
      '!src/shared/json.ts',
      '!src/shared/url.ts',
      '!src/shared/provider.ts',
      '!src/api/index.ts',
    ],
    // Every file of test/node/api but the run against the emulator over HTTP (api/against-emulator.test.ts), and
    // test/node/shared.
    tests: [...testsIn('test/node/api', ['against-emulator.test.ts']), ...testsIn('test/node/shared')],
  },
  server: {
    mutate: [
      'src/server/**/*.ts',
      'src/http/**/*.ts',
      'src/shared/json.ts',
      'src/shared/url.ts',
      'src/shared/provider.ts',
      '!src/server/index.ts',
    ],
    // Every file of test/node/server and test/node/http but the body-read deadline's (http/body-deadline.test.ts),
    // whose 10 s wait would be run again for every mutant of src/http/body-reader.ts and src/http/node.ts it covers.
    tests: [
      ...testsIn('test/node/server'),
      ...testsIn('test/node/http', ['body-deadline.test.ts']),
      'test/node/shared/json.test.ts',
      'test/node/shared/provider.test.ts',
      'test/node/shared/url.test.ts',
    ],
  },
  // The element's rules that hold without a browser (issues #30 and #43): the flow's table, the trust of a popup's
  // message, the "changed since" rule, the status line, the polling schedule and the backend session's retry policy;
  // the flow itself (flow.ts, with the popup it drives and the lifetime that holds its timers, on the fake page of
  // flow.test.ts), the developer's console messages, the terminal error and the language choice; with their Node
  // tests. The rest of the element (the Lit classes, the flow's settings from attributes, the page's reads, the
  // form, the link's block) runs only in the browser suites, which Stryker does not run: no Node test imports it.
  element: {
    mutate: [
      'src/element/machine.ts',
      'src/element/message-gate.ts',
      'src/element/connection-match.ts',
      'src/element/status.ts',
      'src/element/poller.ts',
      'src/element/backend-session.ts',
      'src/element/backend.ts',
      'src/element/flow.ts',
      'src/element/popup.ts',
      'src/element/lifetime.ts',
      'src/element/timing.ts',
      'src/element/developer-messages.ts',
      'src/element/events.ts',
      'src/element/locales.ts',
    ],
    tests: testsIn('test/node/element'),
  },
  emulator: {
    // cli.ts runs only as the child process of emulator/cli.test.ts, where Stryker sees no coverage (it would
    // report all of it as untested and never try a mutant); that test checks the CLI end to end under npm test.
    mutate: ['src/emulator/**/*.ts', '!src/emulator/index.ts', '!src/emulator/cli.ts'],
    parts: {
      operations: [
        'src/emulator/operations.ts',
        'src/emulator/connect.ts',
        'src/emulator/connections.ts',
        'src/emulator/credentials.ts',
        'src/emulator/projects.ts',
        'src/emulator/project-items.ts',
        'src/emulator/lookup.ts',
        'src/emulator/context.ts',
        'src/emulator/state.ts',
        'src/emulator/ids.ts',
      ],
      // The data file apart from the rest of the serving: most of its mutants are covered by every test that
      // writes a file, so it is slow per mutant (the server and data parts together, 1,730 mutants, did not fit
      // in a 3-hour session on 2 cores beside the other parts).
      data: [
        'src/emulator/durable.ts',
        'src/emulator/state-file.ts',
        'src/emulator/state-writer.ts',
        'src/emulator/data-file-lock.ts',
      ],
      // The request's way through the emulator. Every test file builds an emulator, so each of its mutants is
      // covered by all of them, and one that survives costs the whole emulator suite (about 110 s on 2 cores):
      // with what it serves, 1,359 mutants, its one run was set for 4 hours, longer than a session.
      server: [
        'src/emulator/emulator.ts',
        'src/emulator/options.ts',
        'src/emulator/routes.ts',
        'src/emulator/dispatch.ts',
        'src/emulator/error-handler.ts',
      ],
      // What the emulator serves besides the operations: its OpenAPI document, pages, media, catalog and seed.
      content: [
        'src/emulator/media.ts',
        'src/emulator/openapi.ts',
        'src/emulator/pages.ts',
        'src/emulator/providers.ts',
        'src/emulator/seed.ts',
      ],
      access: [
        'src/emulator/jwt.ts',
        'src/emulator/auth.ts',
        'src/emulator/cors.ts',
        'src/emulator/hosts.ts',
        'src/emulator/limits.ts',
        'src/emulator/consent.ts',
      ],
    },
    // Test files a part leaves out of the area's, each with its reason; leaving one out can only make a part's score
    // lower (a mutant only that file would kill counts as survived), never higher.
    testsLeftOut: {
      // What the emulator serves is loaded by every test file, so each of its mutants that survives runs the whole
      // suite (about 2 min on 2 cores; its first run, 958 mutants, had tested 788 in 76 min when it was stopped).
      // The data file's size limit fills an 8 MiB file three times (about 50 s of those 2 min); its rules are the
      // room a change takes (dispatch.ts, emulator.ts, durable.ts, limits.ts), none of them in this part.
      content: ['test/node/emulator/data-file-size-limit.test.ts'],
    },
    // Every file of test/node/emulator but the CLI's (cli.test.ts), the kill -9 loop (durability-kill-9.test.ts) and
    // the lock race (stale-lock-takeover.test.ts): they drive child processes, which Stryker's coverage does not see.
    // Nor operations-table.test.ts: it reads the text of operations.ts, which Stryker rewrites in its sandbox, so its
    // first run fails there.
    tests: [
      ...testsIn('test/node/emulator', [
        'cli.test.ts',
        'durability-kill-9.test.ts',
        'stale-lock-takeover.test.ts',
        'operations-table.test.ts',
      ]),
      'test/node/openapi.test.ts',
    ],
  },
};

// A RegExp for one of the config's globs: "**" and its slash stand for any folders, "*" for any part of a name.
const globRegExp = (glob) =>
  new RegExp(
    `^${glob
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '(?:.*/)?')}$`,
  );
/** The test files an area's run (or its part's) runs: the area's, but those the part leaves out. */
export function testsOf(area, part) {
  const leftOut = (part && AREAS[area].testsLeftOut?.[part]) ?? [];
  return AREAS[area].tests.filter((file) => !leftOut.includes(file));
}

/** Whether the area (or part) mutates `file` now: a report also keeps the results of files an area no longer has. */
export function mutatedBy(area, part, file) {
  const globs = part ? AREAS[area].parts[part] : AREAS[area].mutate;
  const excluded = part ? [] : globs.filter((g) => g.startsWith('!')).map((g) => globRegExp(g.slice(1)));
  return globs.some((g) => !g.startsWith('!') && globRegExp(g).test(file)) && !excluded.some((re) => re.test(file));
}

const area = process.env.MUTATE_AREA ?? 'api';
if (!Object.hasOwn(AREAS, area)) throw new Error(`MUTATE_AREA must be one of ${Object.keys(AREAS).join(', ')}`);
const part = process.env.MUTATE_PART || undefined;
const parts = AREAS[area].parts;
if (parts && !(part !== undefined && Object.hasOwn(parts, part)))
  throw new Error(`MUTATE_PART must be one of ${Object.keys(parts).join(', ')} for ${area}`);
if (!parts && part) throw new Error(`${area} has no parts`);
/** The report's name: the area's, or its part's. */
const name = part ? `${area}.${part}` : area;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  tap: { testFiles: testsOf(area, part), nodeArgs: ['--import', 'tsx', '--test-force-exit'], forceBail: true },
  mutate: part ? parts[part] : AREAS[area].mutate,
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  // tsx runs the tests without type checks; Stryker's default would prepend // @ts-nocheck to src/shared/schema.ts,
  // which openapi.test.ts compares byte for byte with what gen:types generates.
  disableTypeChecks: false,
  incremental: true,
  incrementalFile: `reports/mutation/${name}-incremental.json`,
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 10000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
