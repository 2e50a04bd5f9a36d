import { characterizePythonModule } from '../server/src/characterize/python/characterize';
import { resolve, join } from 'node:path';
const ROOT = resolve(__dirname, 'fixtures', 'pychar');
(async () => {
  const targets = process.argv.slice(2).map((n) => ({ path: [n], arity: 0 }));
  const m = await characterizePythonModule(join(ROOT, 'pychar', 'basics.py'), ROOT, targets);
  console.log(m.stable, m.unstable, m.unusable, m.lines);
  for (const c of m.cases as any[]) console.log(c.path[0], JSON.stringify(c.seq.steps.map((s: any) => [s.fn?.join('.') ?? s.method, s.args, s.kwargs])), JSON.stringify(c.oracle));
})();
