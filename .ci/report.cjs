// Reads vitest's JSON report of one pass and prints `tests (<label>): N passed, M failed`, then
// each failed test with the first lines of its failure, so that the tail of the CI log (often all
// that is kept of it) names what failed. Exit 1 when the pass failed, lost a file or ran nothing.
// Usage: node .ci/report.cjs <report.json> <label>
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters: strip } = require('node:util');

const [file, label] = process.argv.slice(2);
const report = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
if (!report) {
  console.log(`tests (${label}): no report`);
  process.exit(1);
}
const passedOnRetry = report.testResults
  .flatMap((suite) => suite.assertionResults)
  .filter((test) => test.status === 'passed' && (test.failureMessages || []).length > 0).length;
const retried = passedOnRetry > 0 ? ` (${passedOnRetry} of them on retry)` : '';
console.log(`tests (${label}): ${report.numPassedTests} passed${retried}, ${report.numFailedTests} failed`);
for (const suite of report.testResults) {
  const where = path.relative(process.cwd(), suite.name);
  const failed = suite.assertionResults.filter((test) => test.status === 'failed');
  // A file that failed before any test ran (an import error, a dead worker) has only a message.
  if (failed.length === 0 && suite.status === 'failed') {
    console.log(`  FAILED FILE ${where}`);
    for (const line of strip(suite.message || '')
      .split('\n')
      .slice(0, 6))
      console.log(`    ${line}`);
  }
  // Passed when run again (the browser tests are, once, in CI): its first failure is kept.
  for (const test of suite.assertionResults) {
    if (test.status !== 'passed' || (test.failureMessages || []).length === 0) continue;
    console.log(`  PASSED ON RETRY ${where} > ${test.fullName}`);
    const first = strip(test.failureMessages.join('\n')).split('\n').slice(0, 4);
    for (const line of first) console.log(`    ${line}`);
  }
  for (const test of failed) {
    console.log(`  FAILED ${where} > ${test.fullName}`);
    const first = strip((test.failureMessages || []).join('\n'))
      .split('\n')
      .slice(0, 6);
    for (const line of first) console.log(`    ${line}`);
  }
}
// A worker that dies takes its file's tests out of both counts; success says so.
if (report.numTotalTests === 0 || !report.success) process.exit(1);
