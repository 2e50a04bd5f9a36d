// The JSON report jest and vitest both write (`--json --outputFile`, `--reporter=json --outputFile`).
import { existsSync, readFileSync } from 'node:fs';
import type { Parsed, TestOutcome } from './results';
import { NO_RESULTS, relOf } from './results';
import { fromJson } from './reportedValues';

interface Assertion {
  fullName?: string;
  title: string;
  ancestorTitles?: string[];
  status: string;
  failureMessages?: string[];
  /** jest: the thrown errors; expect() failures carry matcherResult (vitest's report has no failureDetails: its failure text is parsed) */
  failureDetails?: { matcherResult?: { expected?: unknown; actual?: unknown } }[];
}

interface JestLikeReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults?: { name: string; status: string; message?: string; assertionResults: Assertion[] }[];
}

export function readJestLike(file: string, dir: string): Parsed {
  return existsSync(file) ? jestLikeResults(readFileSync(file, 'utf8'), dir) : NO_RESULTS;
}

/** A jest/vitest JSON report as results; a suite that failed with no test run is a file error. */
export function jestLikeResults(json: string, dir: string): Parsed {
  const r = JSON.parse(json) as JestLikeReport;
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  for (const suite of r.testResults ?? []) {
    const rel = relOf(dir, suite.name);
    const ran = suite.assertionResults.filter((a) => a.status === 'passed' || a.status === 'failed');
    if (suite.status === 'failed' && !ran.length)
      fileErrors.push({ file: rel, message: (suite.message ?? '').trim() || 'the file failed to load' });
    for (const a of suite.assertionResults) tests.push(outcome(a, rel));
  }
  return { total: r.numTotalTests, passed: r.numPassedTests, failed: r.numFailedTests, tests, fileErrors };
}

function outcome(a: Assertion, file: string): TestOutcome {
  const name = a.fullName || [...(a.ancestorTitles ?? []), a.title].join(' ');
  const status = a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped';
  const matcher = a.failureDetails?.find((d) => d?.matcherResult)?.matcherResult;
  return {
    name,
    status,
    file,
    ...(a.failureMessages?.length ? { message: a.failureMessages.join('\n') } : {}),
    ...(matcher ? fromJson(matcher.expected, matcher.actual) : {}),
  };
}
