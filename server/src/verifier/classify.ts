// Why did a test fail: is the test wrong, or may the code have a bug? (docs/verifier.md, "Classifying a failure")
//
// A consistently failing test is a *possible bug in the code* only when the failing assertion is the
// case's own documented call and expected value: the case's evidence is documentation (README, JSDoc
// @example, docstring, doctest), the runner gives expected/actual (its report's own values, else its
// message parsed), the expected value is the oracle's documented value, and the test makes the
// oracle's call. Errors the test's own code raised, characterization cases and everything else mean
// *the test is wrong*.
import type { TestCase } from '../contracts/types';
import type { DocIssue } from '../core/run';
import type { Framework } from '../core/frameworks';
import { parseAssertion, type ParsedAssertion } from './assertions';
import { sameAcrossTypes, sameLiteral } from './assertions/literal';
import { selfError } from './assertions/selfError';

const DOC_SOURCES = new Set(['readme', 'jsdoc', 'docstring', 'doctest']);

export interface Classification {
  kind: 'possible_bug' | 'test_wrong' | 'doc_issue';
  /** for people: observed vs documented, or why the test is considered wrong */
  reason: string;
  /** set for `doc_issue`: the documented example throws where its docs show a value */
  docIssue?: DocIssue;
  /** set for `possible_bug`: the documented call and value, and what the call returned */
  finding?: DocIssue;
}

export interface Failure {
  framework: Framework;
  testCase: TestCase | undefined;
  /** the failing test's source (its call, name included) */
  testText: string | undefined;
  /** the whole test file, to tell bindings the test made itself */
  fileText: string;
  message: string;
  /** the assertion's expected/actual literals from the runner's report (frameworks/run/reportedValues.ts): read before the message */
  reported?: ParsedAssertion;
}

export function classifyFailure(f: Failure): Classification {
  const wrong = (why: string): Classification => ({ kind: 'test_wrong', reason: `test is wrong: ${why}` });
  const own = selfError(f.message, f.fileText);
  if (own) return wrong(`its own code raised ${JSON.stringify(own)}`);
  const c = f.testCase;
  if (!c) return wrong(`the test has no planned case; runner said: ${JSON.stringify(meaningfulLine(f.message))}`);
  if (isCharacterization(c))
    return wrong(
      `a characterization test pins current behaviour and cannot reveal a bug; runner said: ${JSON.stringify(meaningfulLine(f.message))}`,
    );
  const documented = documentedExpectation(c);
  if (!documented) return wrong(`its expectation is not a documented result; runner said: ${JSON.stringify(meaningfulLine(f.message))}`);
  // The report's own values keep their type ('9' or 9); its text is parsed only where the report has none.
  const parsed = f.reported ?? parseAssertion(f.framework, f.message);
  const thrown = parsed ? undefined : thrownError(f.message);
  if (thrown && c.oracle?.kind !== 'throws' && (!c.oracle?.call || !f.testText || makesCall(f.testText, c.oracle.call)))
    return docIssue(c, documented, thrown);
  if (!parsed)
    return wrong(`the failure is not an assertion of the documented value; runner said: ${JSON.stringify(meaningfulLine(f.message))}`);
  if (!sameLiteral(parsed.expected, documented))
    return wrong(
      `it expects ${JSON.stringify(parsed.expected)}, the documentation says ${JSON.stringify(documented)}; observed: ${JSON.stringify(parsed.actual)}`,
    );
  if (c.oracle?.call && f.testText && !makesCall(f.testText, c.oracle.call))
    return wrong(`it does not make the documented call ${c.oracle.call}`);
  // `'9'` against `9`: the docs' literal was read in another type than the call returns.
  if (sameAcrossTypes(parsed.expected, parsed.actual))
    return wrong(
      `it compares across types: the documentation shows ${JSON.stringify(documented)}, the call returned ${JSON.stringify(parsed.actual)}; the same text, not a contradiction`,
    );
  return { kind: 'possible_bug', reason: possibleBugReason(c, documented, parsed), finding: finding(c, documented, parsed) };
}

/** The documented call throws where its docs show a value: a documentation issue, never dropped silently. */
function docIssue(c: TestCase, documented: string, error: string): Classification {
  const issue: DocIssue = {
    symbol: c.target.symbol,
    file: c.target.file,
    call: c.oracle?.call ?? c.title,
    documented,
    error,
    ...(c.evidence?.location ? { where: `${c.evidence.source} ${c.evidence.location}` } : {}),
  };
  const where = issue.where ? ` (${issue.where})` : '';
  return {
    kind: 'doc_issue',
    reason: `documentation issue in ${issue.symbol} (${issue.file}): documented ${issue.call} → ${JSON.stringify(documented)}${where}; it throws ${JSON.stringify(error)}`,
    docIssue: issue,
  };
}

/** `TypeError: Cannot read …` when the runner's message is an error the code threw, not an assertion. */
function thrownError(message: string): string | undefined {
  const m = message.replace(/\u001b\[[0-9;]*m/g, '');
  if (/AssertionError|\bexpected\b.*\bto (?:equal|be|deep)/i.test(m)) return undefined;
  const hit = /(?:^|\s)((?:[A-Z][\w$]*)?Error(?: \[[A-Z_]+\])?: [^\n]+|[A-Z][\w$]*(?:Error|Exception)\b[^\n]*)/m.exec(m);
  return hit ? hit[1].trim().slice(0, 300) : undefined;
}

function finding(c: TestCase, documented: string, parsed: ParsedAssertion): DocIssue {
  return {
    symbol: c.target.symbol,
    file: c.target.file,
    call: c.oracle?.call ?? c.title,
    documented,
    actual: parsed.actual,
    ...(c.evidence?.location ? { where: `${c.evidence.source} ${c.evidence.location}` } : {}),
  };
}

function possibleBugReason(c: TestCase, documented: string, parsed: ParsedAssertion): string {
  const where = c.evidence?.location ? ` (${c.evidence.source} ${c.evidence.location})` : ` (${c.evidence?.source})`;
  return `possible bug in ${c.target.symbol} (${c.target.file}): documented ${c.oracle?.call ?? c.title} → ${JSON.stringify(documented)}${where}; observed: ${JSON.stringify(parsed.actual)}`;
}

/** Characterization cases pin what the code does today (P2/P3); a failure there is never the code's fault. */
function isCharacterization(c: TestCase): boolean {
  if (c.priority !== 'P2' && c.priority !== 'P3') return false;
  return (c.kind as string) === 'characterization' || /pins? (the )?current behaviou?r/i.test(`${c.title}\n${c.rationale}`);
}

/** The documented result a case's oracle carries, when its evidence is documentation. */
function documentedExpectation(c: TestCase | undefined): string | undefined {
  if (!c?.oracle || !c.evidence || !DOC_SOURCES.has(c.evidence.source)) return undefined;
  const o = c.oracle;
  if (o.kind === 'throws') return o.error;
  return o.expected;
}

/** Does the test's body (its name excluded) make the call, spelled in any quote style or spacing? */
function makesCall(testText: string, call: string): boolean {
  const body = testText.replace(/^\s*[\w.$]+\(\s*(['"`])(?:\\.|(?!\1)[^\\])*\1/, '').replace(/^\s*(async\s+)?def\s+\w+/, '');
  const norm = (s: string) => s.replace(/\s+/g, '').replace(/["`]/g, "'");
  return norm(body).includes(norm(call));
}

const MEANINGFUL = [
  /Cannot find module [^\n]+/,
  /\b(?:SyntaxError|ReferenceError|TypeError|ModuleNotFoundError|ImportError|NameError|IndentationError|Error \[ERR_[A-Z_]+\]): [^\n]+/,
  /\bERR_[A-Z_]+\b[^\n]*/,
];

/** The line of an error that says what went wrong (`Cannot find module …`, `SyntaxError: …`), else the first non-noise line. */
export function meaningfulLine(message: string): string {
  const m = message.replace(/\u001b\[[0-9;]*m/g, '').replace(/^#\s?/gm, '');
  for (const re of MEANINGFUL) {
    const hit = re.exec(m);
    if (hit) return hit[0].trim().slice(0, 400);
  }
  return firstLine(m);
}

/** First meaningful line of an error, for short reasons. */
export function firstLine(message: string): string {
  return (
    message
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !/^(error:\s*\|-?|---|\.\.\.|●.*|test failed|collection failure)$/.test(l)) ?? 'no message'
  ).slice(0, 240);
}
