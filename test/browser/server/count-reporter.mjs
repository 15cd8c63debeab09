// A @web/test-runner reporter that writes the run's totals as JSON to
// $WTR_SUMMARY_FILE, so scripts/test-all.mjs can add every runner up.
import { writeFileSync } from 'node:fs';

function countSuite(suite, totals) {
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites) countSuite(child, totals);
}

export function countReporter() {
  return {
    stop({ sessions }) {
      const file = process.env.WTR_SUMMARY_FILE;
      if (!file) return;
      const totals = { passed: 0, failed: 0, skipped: 0, sessionErrors: 0 };
      for (const session of sessions) {
        if (session.testResults) countSuite(session.testResults, totals);
        // A file that fails to load, or errors outside a test, counts as a failure.
        if (!session.passed && session.errors.length > 0) totals.sessionErrors += session.errors.length;
      }
      totals.failed += totals.sessionErrors;
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
