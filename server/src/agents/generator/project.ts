// The project block of a plan: what the Test Engineer must know about the project. Computed by
// AMTP from the crawler's map (a model never writes it).
import type { CrawlerOutput, TestCases } from '../../contracts/types';

export function projectBlock(map: CrawlerOutput): TestCases['project'] {
  const ts = map.test_setup;
  const language =
    map.project.module_system === 'python'
      ? 'python'
      : map.project.typescript
        ? 'typescript'
        : map.key_files.some((f) => /\.[cm]?jsx?$/.test(f.path)) || map.project.module_system !== 'unknown'
          ? 'javascript'
          : 'other';
  return {
    name: map.project.name,
    language,
    module_system: map.project.module_system,
    typescript: map.project.typescript,
    test_setup: {
      framework: ts.framework,
      test_dirs: ts.test_dirs,
      config_files: ts.config_files,
      ...(ts.others?.length ? { others: ts.others } : {}),
      ...(ts.naming_pattern ? { naming_pattern: ts.naming_pattern } : {}),
      ...(ts.command ? { command: ts.command } : {}),
      ...(ts.runs ? { runs: ts.runs } : {}),
      ...(ts.typecheck ? { typecheck: ts.typecheck } : {}),
    },
  };
}
