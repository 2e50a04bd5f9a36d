// The one list of framework descriptors (frameworks/descriptor.ts). Every per-framework table reads
// it: the renderers, the prompts' conventions, the runners and their packages, the failure parsers,
// the layout's and mutation's facts and the crawler's detection. Adding a framework is a folder
// frameworks/<id>/ and one line here; `npm run gen:frameworks` then writes its id into every list
// (core/frameworks.ts, the schemas' enums, package.json's settings; docs/architecture.md).
import type { Framework } from '../core/frameworks';
import { descriptor as ava } from './ava';
import type { FrameworkDescriptor } from './descriptor';
import { descriptor as jest } from './jest';
import { descriptor as mocha } from './mocha';
import { descriptor as nodeTap } from './node-tap';
import { descriptor as nodeTest } from './node-test';
import { descriptor as pytest } from './pytest';
import { descriptor as vitest } from './vitest';

/** In the order the crawler casts its votes, which breaks ties between equal evidence (agents/crawler/testSetup.ts). */
export const FRAMEWORK_REGISTRY: Record<Framework, FrameworkDescriptor> = {
  vitest,
  jest,
  mocha,
  'node-test': nodeTest,
  pytest,
  ava,
  'node-tap': nodeTap,
};

/** A framework's runner as a test script and test_setup.runs name it: its command where that is not the id (`tap`). */
export function runnerName(d: FrameworkDescriptor): string {
  return d.detection.command ?? d.id;
}
