// `amtp crawl [DIR]`: the static map. Its own file, so the command loads the crawler and nothing
// of the pipeline (main.ts loads each command's file when it runs).
import { crawlWorkspace } from '../agents/crawler/staticMap';
import { EXIT } from '../core/exitCodes';
import type { FlagValues } from './flags';
import { workspaceArg } from './io';

const out = (text: string) => process.stdout.write(text + '\n');

export async function crawl(positionals: string[], v: FlagValues): Promise<number> {
  const { map } = await crawlWorkspace(await workspaceArg(positionals[0]));
  if (v.json) out(JSON.stringify(map));
  else {
    out(`${map.project.name}: ${map.tree.files} files, ${map.languages.map((l) => `${l.name} ${l.files}`).join(', ')}`);
    out(
      `tests: ${map.test_setup.framework} in ${map.test_setup.test_dirs.join(', ') || '(none)'}; entry points: ${map.entry_points.map((e) => e.path).join(', ') || '(none)'}`,
    );
    out(`key files: ${map.key_files.length}; examples: ${map.usage_examples.length}; skipped: ${map.skipped.length}`);
  }
  return EXIT.ok;
}
