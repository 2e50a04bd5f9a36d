import type { CrawlerOutput } from '../../contracts/types';

// Placeholder until the MCP-based crawler lands (issue #3).
export async function crawlWorkspace(workspace: string): Promise<{ map: CrawlerOutput }> {
  const path = await import('node:path');
  return {
    map: {
      schema_version: '1',
      project: { name: path.basename(workspace), module_system: 'unknown', typescript: false },
      tree: { files: 0, dirs: 0, bytes: 0, truncated: false },
      languages: [],
      package_managers: [],
      frameworks: [],
      test_setup: { framework: 'none', test_dirs: [], config_files: [] },
      entry_points: [],
      key_files: [],
      usage_examples: [],
      skipped: [],
    },
  };
}
