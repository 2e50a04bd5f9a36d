// The layering holds by machine: no runtime import cycle between server folders, and core/ imports
// nothing of ours. The graph comes from esbuild's metafile, which (like the bundles) drops
// type-only imports, so it is exactly what runs.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRIES = ['server/src/server.ts', 'server/src/cli.ts', 'client/src/extension.ts'];

/** `server/<folder>` for server/src/<folder>/…; a file at server/src (an entry point, protocol.ts) is its own node. */
function folderOf(file: string): string | undefined {
  const m = /^(server|client)\/src\/(.*)$/.exec(file);
  if (!m) return undefined;
  const parts = m[2].split('/');
  return `${m[1]}/${parts.length > 1 ? parts[0] : parts[0].replace(/\.ts$/, '')}`;
}

async function folderGraph(): Promise<Map<string, Map<string, string>>> {
  const r = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    outdir: 'out/import-graph',
    external: ['vscode', 'typescript'],
    logLevel: 'silent',
  });
  const graph = new Map<string, Map<string, string>>();
  for (const [file, input] of Object.entries(r.metafile.inputs)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const imp of input.imports) {
      const to = folderOf(imp.path);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} → ${imp.path}`);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 'done') return undefined;
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n)?.keys() ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of [...graph.keys()].sort()) {
    const c = visit(n);
    if (c) return c;
  }
  return undefined;
}

describe('import graph', () => {
  let graph: Map<string, Map<string, string>>;
  before(async () => {
    graph = await folderGraph();
  });

  it('has no runtime import cycle between folders', () => {
    const cycle = findCycle(graph);
    const why = cycle
      ?.slice(1)
      .map((to, i) => graph.get(cycle[i])!.get(to))
      .join('\n  ');
    assert.equal(cycle, undefined, `cycle ${cycle?.join(' → ')}:\n  ${why}`);
  });

  it('core/ imports nothing of ours, and protocol.ts only core/', () => {
    assert.deepEqual([...(graph.get('server/core')?.entries() ?? [])], []);
    assert.deepEqual(
      [...(graph.get('server/protocol')?.keys() ?? [])].filter((k) => k !== 'server/core'),
      [],
    );
  });

  it('the client reaches the server only through protocol.ts and core/', () => {
    const client = [...graph.keys()].filter((k) => k.startsWith('client/'));
    const reach = client.flatMap((c) => [...(graph.get(c)?.entries() ?? [])]).filter(([to]) => to.startsWith('server/'));
    assert.ok(reach.length > 0);
    for (const [to, why] of reach) assert.ok(to === 'server/protocol' || to === 'server/core', why);
  });

  it('detects a cycle when there is one (the check can fail)', () => {
    const g = new Map([
      ['a', new Map([['b', 'x']])],
      ['b', new Map([['a', 'y']])],
    ]);
    assert.deepEqual(findCycle(g), ['a', 'b', 'a']);
  });
});
