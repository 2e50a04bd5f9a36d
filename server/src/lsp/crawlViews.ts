// What amtp/crawl and amtp/detect answer: the crawler's map, cut to what the client shows.
import type { CrawlerOutput } from '../contracts/generated';
import { isFramework } from '../core/frameworks';
import type * as P from '../protocol';

export function crawlResult(map: CrawlerOutput): P.CrawlResult {
  return {
    project: map.project.name,
    files: map.tree.files,
    languages: map.languages.map((l) => ({ name: l.name, files: l.files })),
    testFramework: map.test_setup.framework,
    testDirs: map.test_setup.test_dirs,
    entryPoints: map.entry_points.map((e) => e.path),
    keyFiles: map.key_files.length,
    examples: map.usage_examples.length,
    skipped: map.skipped.length,
  };
}

/** The framework the project uses, else the language's default. */
export function detectResult(map: CrawlerOutput): P.DetectResult {
  const fw = map.test_setup.framework;
  const language = map.project.module_system === 'python' ? 'python' : map.project.typescript ? 'typescript' : 'javascript';
  const framework: P.FrameworkChoice = isFramework(fw) ? fw : language === 'python' ? 'pytest' : 'node-test';
  return { framework, language };
}
