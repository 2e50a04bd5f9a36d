// The one list of framework descriptors (frameworks/descriptor.ts). Every per-framework table reads
// it: the renderers, the prompts' conventions, the runners and their packages, the failure parsers.
// Adding a framework is a folder frameworks/<id>/ and one line here (and its id in core/frameworks.ts).
import type { Framework } from '../core/frameworks';
import { descriptor as ava } from './ava';
import type { FrameworkDescriptor } from './descriptor';
import { descriptor as jest } from './jest';
import { descriptor as mocha } from './mocha';
import { descriptor as nodeTap } from './node-tap';
import { descriptor as nodeTest } from './node-test';
import { descriptor as pytest } from './pytest';
import { descriptor as vitest } from './vitest';

export const FRAMEWORK_REGISTRY: Record<Framework, FrameworkDescriptor> = {
  jest,
  vitest,
  mocha,
  'node-test': nodeTest,
  pytest,
  ava,
  'node-tap': nodeTap,
};
