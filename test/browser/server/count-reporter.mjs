// A @web/test-runner reporter that writes the run's totals as JSON to
// $WTR_SUMMARY_FILE, so scripts/test-all.mjs can add every runner up, with the
// name of each failed test (browser, file, suites, test, the error's first
// line): the summary at the end of a long CI log then says what failed.
import { writeFileSync } from 'node:fs';

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 200);
}

function countSuite(suite, totals, where) {
  const path = suite.name ? [...where, suite.name] : where;
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else {
      totals.failed++;
      totals.failures.push(`${[...path, test.name].join(' > ')}: ${firstLine(test.error?.message)}`);
    }
  }
  for (const child of suite.suites) countSuite(child, totals, path);
}

export function countReporter() {
  return {
    stop({ sessions }) {
      const file = process.env.WTR_SUMMARY_FILE;
      if (!file) return;
      const totals = { passed: 0, failed: 0, skipped: 0, sessionErrors: 0, failures: [] };
      for (const session of sessions) {
        const where = [session.browser?.name ?? 'browser', session.testFile.replace(process.cwd() + '/', '')];
        if (session.testResults) countSuite(session.testResults, totals, where);
        // A file that fails to load, or errors outside a test, counts as a failure.
        if (!session.passed && session.errors.length > 0) {
          totals.sessionErrors += session.errors.length;
          for (const error of session.errors) totals.failures.push(`${where.join(' > ')}: ${firstLine(error.message)}`);
        }
      }
      totals.failed += totals.sessionErrors;
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
