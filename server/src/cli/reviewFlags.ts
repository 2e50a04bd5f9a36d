// The flags of `amtp review` (per-test decisions: keep, drop, answer a quarantine), part of FLAGS (flags.ts).
import type { FlagSpec } from './flags';

export const REVIEW_FLAGS = {
  keep: { type: 'string', multiple: true, value: 'CASE_ID', help: 'accept this test (repeatable)', commands: ['review'] },
  drop: {
    type: 'string',
    multiple: true,
    value: 'CASE_ID',
    help: 'reject this test: removed from its file now, never written back (repeatable)',
    commands: ['review'],
  },
  'real-bug': {
    type: 'string',
    multiple: true,
    value: 'CASE_ID',
    help: 'a quarantined test shows a real bug: it stays quarantined and skipped with your reason (repeatable)',
    commands: ['review'],
  },
  'docs-wrong': {
    type: 'string',
    multiple: true,
    value: 'CASE_ID',
    help: 'a quarantined test follows documentation that is wrong: reported as a documentation issue (repeatable)',
    commands: ['review'],
  },
  'wrong-test': {
    type: 'string',
    multiple: true,
    value: 'CASE_ID',
    help: 'a quarantined (or any) test is wrong: removed, never written back, and a lesson for the next run (repeatable)',
    commands: ['review'],
  },
  accept: { type: 'string', multiple: true, value: 'CASE_ID', help: 'the same as --keep (repeatable)', commands: ['review'] },
  reject: { type: 'string', multiple: true, value: 'CASE_ID', help: 'the same as --drop (repeatable)', commands: ['review'] },
  interactive: {
    type: 'boolean',
    help: 'ask about each undecided test in turn (the default on a terminal when no decision is given)',
    commands: ['review'],
  },
  reason: {
    type: 'string',
    value: 'TEXT',
    help: 'why: kept with each decision of this call (one line, at most 500 characters)',
    commands: ['review'],
  },
} as const satisfies Record<string, FlagSpec>;
