// The type each schema describes, so a value that passed `requireValid` is narrowed to it.
import type { Artifact } from '../core/run';
import type { HandoffEnvelopeDoc } from './generated';
import type {
  CasePlan,
  Characterization,
  CrawlerOutput,
  CrawlerPatch,
  EngineerInput,
  EngineerOutput,
  RepairInput,
  RepairOutput,
  RoundInput,
  RoundOutput,
  TestBodies,
  TestCases,
} from './types';

export interface SchemaTypes {
  'crawler-output': CrawlerOutput;
  'test-cases': TestCases;
  'engineer-output': EngineerOutput;
  'handoff-envelope': HandoffEnvelopeDoc;
  artifact: Artifact;
  /** a recording line: its three shapes are told apart by `type` (server/src/record/recording.ts) */
  'recording-event': { type: string };
  'repair-input': RepairInput;
  'repair-output': RepairOutput;
  'crawler-patch': CrawlerPatch;
  'case-plan': CasePlan;
  'engineer-input': EngineerInput;
  'test-bodies': TestBodies;
  characterization: Characterization;
  'round-input': RoundInput;
  'round-output': RoundOutput;
}
