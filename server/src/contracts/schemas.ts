// The JSON Schemas are imported (not read from disk) so the bundles are self-contained.
import crawlerOutput from '../../../schemas/crawler-output.schema.json';
import testCases from '../../../schemas/test-cases.schema.json';
import engineerOutput from '../../../schemas/engineer-output.schema.json';
import handoffEnvelope from '../../../schemas/handoff-envelope.schema.json';
import artifact from '../../../schemas/artifact.schema.json';
import recordingEvent from '../../../schemas/recording-event.schema.json';
import repairInput from '../../../schemas/repair-input.schema.json';
import repairOutput from '../../../schemas/repair-output.schema.json';
import crawlerPatch from '../../../schemas/crawler-patch.schema.json';
import casePlan from '../../../schemas/case-plan.schema.json';
import engineerInput from '../../../schemas/engineer-input.schema.json';
import testBodies from '../../../schemas/test-bodies.schema.json';
import characterization from '../../../schemas/characterization.schema.json';
import roundInput from '../../../schemas/round-input.schema.json';
import roundOutput from '../../../schemas/round-output.schema.json';
import decision from '../../../schemas/decision.schema.json';
import lesson from '../../../schemas/lesson.schema.json';

export const SCHEMAS = {
  'crawler-output': crawlerOutput,
  'test-cases': testCases,
  'engineer-output': engineerOutput,
  'handoff-envelope': handoffEnvelope,
  artifact,
  'recording-event': recordingEvent,
  'repair-input': repairInput,
  'repair-output': repairOutput,
  'crawler-patch': crawlerPatch,
  'case-plan': casePlan,
  'engineer-input': engineerInput,
  'test-bodies': testBodies,
  characterization,
  'round-input': roundInput,
  'round-output': roundOutput,
  decision,
  lesson,
} as const;

export type SchemaName = keyof typeof SCHEMAS;
