// What characterizing a Python module (python/characterize.ts) keeps: every candidate input is called
// twice, in two separate children; only results that agree (same value, or same error name and
// message) are kept, so output that depends on time, randomness or object identity is dropped. Of
// those, greedy selection keeps the calls that add covered lines. Each kept call becomes a case whose
// oracle is the observed behaviour. (JavaScript and TypeScript modules get the search of call
// sequences instead: server/src/search/.)
import type { InputSeed } from './inputs';
import type { Coverage } from './sandbox';
import type { Tagged } from './values';

export interface CharTarget extends InputSeed {
  /** export path, e.g. ["slugify"] or ["default", "parse"] */
  path: string[];
}

export type CharOracle =
  | { kind: 'equals' | 'deep_equals'; value: Tagged }
  /** `iterated`: a Python generator that raises once iterated, so the test calls list(...) */
  | { kind: 'throws'; errorName: string; message: string; iterated?: boolean };

export interface CharCase extends Coverage {
  id: string;
  path: string[];
  args: Tagged[];
  oracle: CharOracle;
}

export interface ModuleCharacterization {
  module: string;
  cases: CharCase[];
  /** calls whose two runs agreed (before greedy selection) */
  stable: number;
  /** calls dropped because two runs disagreed */
  unstable: number;
  /** calls dropped for a timeout, a crash or a value that cannot be pinned */
  unusable: number;
  /** all lines the stable calls covered (the kept cases cover the same set) */
  lines: number;
  /** the wall-clock safety stop ended the search before its count of tries */
  cutByClock?: boolean;
}
