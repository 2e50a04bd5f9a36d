// pytest: its JUnit XML report (`--junitxml=FILE`), read with fast-xml-parser.
import { XMLParser } from 'fast-xml-parser';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Parsed, TestOutcome } from '../run/results';
import { NO_RESULTS } from '../run/results';
import type { FrameworkRunner } from '../run/runnerTypes';
import { grepOf } from '../run/runnerTypes';

export const pytestRunner: FrameworkRunner = {
  invocation(files, out, opts) {
    const file = join(out, 'junit.xml');
    const g = grepOf(opts, 'pytest');
    const grep = g ? ['-k', g] : [];
    return {
      cmd: opts.python ?? 'python3',
      args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${file}`, ...grep, ...(opts.args ?? []), ...files],
      read: () => (existsSync(file) ? junitResults(readFileSync(file, 'utf8')) : NO_RESULTS),
    };
  },
};

interface Failure {
  message?: string;
  '#text'?: string;
}
interface TestCaseXml {
  name?: string;
  classname?: string;
  failure?: Failure | string;
  error?: Failure | string;
  skipped?: Failure | string;
}
interface SuiteXml {
  tests?: string;
  skipped?: string;
  failures?: string;
  errors?: string;
  testcase?: TestCaseXml[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // attributes and text stay strings (a test named "1e3" is not a number); entities are decoded
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // numeric references (&#10; in a message attribute) are decoded only with htmlEntities
  htmlEntities: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase',
});

/** A JUnit XML report (pytest's) as results; a testcase with no classname that errored is a collection error. */
export function junitResults(xml: string): Parsed {
  const doc = parser.parse(xml) as { testsuites?: { testsuite?: SuiteXml[] }; testsuite?: SuiteXml[] };
  const suites = doc.testsuites?.testsuite ?? doc.testsuite ?? [];
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  let total = 0;
  let failed = 0;
  for (const suite of suites) {
    const n = (k: 'tests' | 'skipped' | 'failures' | 'errors') => Number(suite[k] ?? 0) || 0;
    total += n('tests') - n('skipped');
    failed += n('failures') + n('errors');
    for (const tc of suite.testcase ?? []) {
      const name = tc.name ?? '';
      const classname = tc.classname ?? '';
      const fail = tc.failure ?? tc.error;
      const message = fail ? failureText(fail) : undefined;
      if (!classname && fail) {
        // collection error: name is the dotted module path of the test file
        fileErrors.push({ file: name.replace(/\./g, '/') + '.py', message: message || 'collection failed' });
        continue;
      }
      const status: TestOutcome['status'] = fail ? 'failed' : tc.skipped !== undefined ? 'skipped' : 'passed';
      tests.push({ name: `${classname}::${name}`, status, file: classname.replace(/\./g, '/') + '.py', ...(message ? { message } : {}) });
    }
  }
  return { total, passed: total - failed, failed, tests, fileErrors };
}

/**
 * The failure's message attribute, then its body (pytest's traceback with the `E` lines). JUnit XML has
 * no expected/actual values: the verifier parses this text.
 */
function failureText(f: Failure | string): string {
  if (typeof f === 'string') return f.trim();
  return `${f.message ?? ''}\n${f['#text'] ?? ''}`.trim();
}
