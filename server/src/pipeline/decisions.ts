// A person's decisions about single tests, kept across runs: one lowdb file per case under
// .amtp/decisions/<caseId>.json (schemas/decision.schema.json), so a write touches one small file.
// Each carries a seal (store/ownership.ts decisionMac) over the workspace and every field that
// changes what it does. A decision can hide a test from every later run and its reason reaches the
// model as a lesson, so a file a repository planted, copied from another checkout or case, or
// edited by hand is read as data, counted, and never obeyed.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { formatContractErrors, validate } from '../contracts/validate';
import type { TestDecision } from '../contracts/generated';
import { StoreCorruptError, UsageError, errorMessage } from '../core/errors';
import type { TestCase } from '../contracts/types';
import type { RunRecord } from '../core/run';
import { sha256 } from '../core/canonical';
import { fileKind, readRegularFileSync } from '../util/regularFile';
import { decisionMac, sameDecisionMac } from '../store/ownership';
import { STORE_DIR } from '../store/lowdb';

export type { TestDecision } from '../contracts/generated';
export type Verdict = TestDecision['verdict'];

/**
 * The cases the person decided this way, as the run took the decisions when it started: `accepted`
 * (`amtp review --accept`: a change needs an approved overwrite), `edited` (changed by hand,
 * pipeline/editedTests.ts: theirs, kept exactly, whatever is approved).
 */
export function casesDecided(run: RunRecord, verdict: 'accepted' | 'edited'): ReadonlySet<string> {
  return new Set((run.params.decided?.decisions ?? []).filter((d) => d.verdict === verdict).map((d) => d.caseId));
}

/** Verdicts after which no later run writes the test back. */
export const HOLDS_BACK: ReadonlySet<Verdict> = new Set<Verdict>(['rejected', 'deleted', 'wrong_test', 'edited']);

export type DecisionInput = Omit<TestDecision, 'schema_version' | 'seal' | 'at'> & { at?: string };

export interface IgnoredDecision {
  file: string;
  reason: string;
}

const MAX_DECISION_BYTES = 64 * 1024;
const CASE_ID = /^tc_[0-9a-f]{6,64}$/;

export function isCaseId(id: string): boolean {
  return CASE_ID.test(id);
}

/**
 * What a case checks, apart from its words: the case id hashes the title too, so a model that words
 * a rejected test anew would bring it back under a new id. With an oracle: the target, setup, call and
 * expected value or error. Without (a model's prose plan): the target, kind, steps and expected
 * outcomes, lower-cased with punctuation and spacing dropped.
 */
export function behaviorOf(c: Pick<TestCase, 'target' | 'kind' | 'steps' | 'expected' | 'oracle'>): string {
  const o = c.oracle;
  const words = (lines: string[]) =>
    lines
      .map((l) =>
        l
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim(),
      )
      .join('\n');
  const what = o?.call
    ? ['oracle', o.kind, o.setup ?? '', o.call, o.expected ?? '', o.error ?? '']
    : ['plan', c.kind, words(c.steps), words(c.expected)];
  return sha256([c.target.file, c.target.symbol, ...what].join('\n'));
}

function sealFields(d: Omit<TestDecision, 'seal'>): Record<string, string | undefined> {
  return {
    caseId: d.caseId,
    verdict: d.verdict,
    reason: d.reason,
    file: d.target.file,
    symbol: d.target.symbol,
    sourceHash: d.target.sourceHash,
    // Only when present: decisions sealed before the field existed keep their seal.
    ...(d.target.behavior !== undefined ? { behavior: d.target.behavior } : {}),
    ...(d.correction ? { correctionCall: d.correction.call, correctionExpected: d.correction.expected } : {}),
    title: d.title,
    testFile: d.testFile,
    runId: d.runId,
    decidedBy: d.decidedBy,
    at: d.at,
  };
}

export class DecisionStore {
  readonly dir: string;

  constructor(readonly workspace: string) {
    this.dir = path.join(workspace, STORE_DIR, 'decisions');
  }

  /** Seals, validates and writes one decision; a later decision about the same case replaces it. */
  async put(input: DecisionInput): Promise<TestDecision> {
    if (!isCaseId(input.caseId)) throw new UsageError(`${JSON.stringify(input.caseId)} is not a case id (tc_ followed by hex)`);
    const unsealed: Omit<TestDecision, 'seal'> = {
      schema_version: '1',
      ...input,
      ...(input.reason !== undefined ? { reason: oneLine(input.reason, 500) } : {}),
      at: input.at ?? new Date().toISOString(),
    };
    const decision: TestDecision = { ...unsealed, seal: decisionMac(this.workspace, sealFields(unsealed)) };
    const check = validate('decision', decision);
    if (!check.ok) throw new UsageError(`the decision about ${input.caseId} is not valid: ${formatContractErrors(check.errors)}`);
    await this.ensureDir();
    await new Low<TestDecision>(new JSONFile(this.file(decision.caseId)), decision).write();
    return decision;
  }

  /** Forgets the decision about a case: the next run plans and writes it again. True when there was one. */
  async forget(caseId: string): Promise<boolean> {
    if (!isCaseId(caseId)) throw new UsageError(`${JSON.stringify(caseId)} is not a case id (tc_ followed by hex)`);
    const file = this.file(caseId);
    const had = await fsp.lstat(file).then(
      () => true,
      () => false,
    );
    await fsp.rm(file, { force: true });
    return had;
  }

  /** This person's decisions here, by case id, and the files left aside with why. Never fails on a bad file. */
  async scan(): Promise<{ decisions: Map<string, TestDecision>; ignored: IgnoredDecision[] }> {
    const decisions = new Map<string, TestDecision>();
    const ignored: IgnoredDecision[] = [];
    const st = await fsp.lstat(this.dir).catch(() => undefined);
    if (!st) return { decisions, ignored };
    if (!st.isDirectory()) return { decisions, ignored: [{ file: 'decisions', reason: `a ${fileKind(st)}, not a folder` }] };
    const names = (await fsp.readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
    for (const name of names) {
      const problem = this.problem(name);
      if (typeof problem === 'string') ignored.push({ file: name, reason: problem });
      else decisions.set(problem.caseId, problem);
    }
    return { decisions, ignored };
  }

  /** The decision in the file, or why it is not one this person took here. */
  private problem(name: string): TestDecision | string {
    let value: unknown;
    try {
      value = JSON.parse(readRegularFileSync(path.join(this.dir, name), MAX_DECISION_BYTES).toString('utf8'));
    } catch (e) {
      return e instanceof SyntaxError ? 'not valid JSON' : errorMessage(e);
    }
    const check = validate('decision', value);
    if (!check.ok) return `not a decision (${formatContractErrors(check.errors, 3)})`;
    const d = value as TestDecision;
    if (`${d.caseId}.json` !== name) return `holds case ${d.caseId}, not its own file's`;
    const { seal, ...rest } = d;
    if (!sameDecisionMac(seal, decisionMac(this.workspace, sealFields(rest))))
      return 'not taken by you in this workspace (its seal does not match)';
    return d;
  }

  private file(caseId: string): string {
    return path.join(this.dir, `${caseId}.json`);
  }

  /** Only a real folder: a planted symlink would send the decisions wherever it points. */
  private async ensureDir(): Promise<void> {
    for (const dir of [path.dirname(this.dir), this.dir]) {
      const st = await fsp.lstat(dir).catch(() => undefined);
      if (st && !st.isDirectory())
        throw new StoreCorruptError(
          `${dir} is a ${fileKind(st)}, not a folder (it may have come with the repository): remove it and try again`,
        );
      if (!st) await fsp.mkdir(dir, { recursive: true });
    }
  }
}

/** One line of at most `max` characters: a reason is shown in lists and carried in lessons. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** One line for the person about decision files that were not honoured; undefined when none. */
export function ignoredDecisionsNote(ignored: IgnoredDecision[]): string | undefined {
  if (!ignored.length) return undefined;
  const list = ignored
    .slice(0, 5)
    .map((i) => `${i.file}: ${i.reason}`)
    .join('; ');
  return `ignoring ${ignored.length} decision file(s) in ${STORE_DIR}/decisions (${list}${ignored.length > 5 ? '; …' : ''}). They may have come with the repository; AMTP never obeys them.`;
}
