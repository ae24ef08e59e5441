// Reads vitest's JSON report of one pass and prints `tests (<label>): N passed, M failed`, then
// each failed test with the first lines of its failure and each skipped test by name, so that the tail of the CI log (often all
// that is kept of it) names what failed. Exit 1 when the pass failed, lost a file or ran nothing.
// Usage: node .ci/report.cjs <report.json> <label>
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const [file, label] = process.argv.slice(2);
const report = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
if (!report) {
  console.log(`tests (${label}): no report`);
  process.exit(1);
}

/** Prints a heading, then the first lines of what went wrong, indented under it. */
function say(heading, messages) {
  console.log(`  ${heading}`);
  const lines = stripVTControlCharacters(messages.join('\n')).split('\n');
  for (const line of lines.slice(0, 6)) console.log(`    ${line}`);
}

// Failed tests, and tests that passed with a failure kept: passed on their retry (the browser
// tests retry once in CI). Files that failed before any test ran (an import error, a dead
// worker) have only a message of their own.
const failed = [];
const retried = [];
// Skipped tests: only the cross-engine suite skips, for an engine by name, with the reason in
// the test's title (tests/browser/engines/); listed so that no skip goes unseen.
const skipped = [];
for (const suite of report.testResults) {
  const where = path.relative(process.cwd(), suite.name);
  const tests = suite.assertionResults;
  if (suite.status === 'failed' && !tests.some((test) => test.status === 'failed'))
    failed.push({ name: `FILE ${where}`, messages: [suite.message || ''] });
  for (const test of tests) {
    const entry = { name: `${where} > ${test.fullName}`, messages: test.failureMessages || [] };
    if (test.status === 'failed') failed.push(entry);
    else if (test.status === 'passed' && entry.messages.length > 0) retried.push(entry);
    else if (test.status === 'skipped' || test.status === 'pending') skipped.push(entry.name);
  }
}
const onRetry = retried.length > 0 ? ` (${retried.length} of them on retry)` : '';
const skips = skipped.length > 0 ? `, ${skipped.length} skipped` : '';
console.log(
  `tests (${label}): ${report.numPassedTests} passed${onRetry}, ${report.numFailedTests} failed${skips}`,
);
for (const name of skipped) console.log(`  SKIPPED ${name}`);
for (const { name, messages } of retried) say(`PASSED ON RETRY ${name}`, messages);
for (const { name, messages } of failed) say(`FAILED ${name}`, messages);
// A worker that dies takes its file's tests out of both counts; success says so.
if (report.numTotalTests === 0 || !report.success) process.exit(1);
