import type { CrawlerOutput, TestCases } from '../../contracts/types';
import type { Depth } from '../../pipeline/types';

// Placeholder until issue #4 lands.
export function generateCases(map: CrawlerOutput, depth: Depth): TestCases {
  return {
    schema_version: '1',
    depth_level: depth,
    project: { name: map.project.name, language: map.project.typescript ? 'typescript' : 'javascript', module_system: map.project.module_system, typescript: map.project.typescript, test_setup: { framework: map.test_setup.framework, test_dirs: map.test_setup.test_dirs, config_files: map.test_setup.config_files } },
    cases: [],
  };
}
