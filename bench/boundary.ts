// Boundary overhead and artifact write cost (issue #2). Run with `npm run bench`.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { acceptReply } from '../server/src/llm/accept';
import { buildEnvelope } from '../server/src/contracts/envelope';
import { LowdbStore } from '../server/src/store/lowdb';
import type { ArtifactMeta } from '../server/src/core/run';

const META: ArtifactMeta = { sanitizer: 'v1.0.0', provider: 'bench', model: 'bench', seed: 1, promptHash: 'a'.repeat(64), attempt: 1 };

/** A valid crawler-output map of roughly `bytes` bytes, shaped like a real one (many files, symbols, docs). */
function crawlerMap(bytes: number, salt: number) {
  const keyFiles = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const kf = {
      path: `src/module_${i}/index.ts`,
      language: 'typescript',
      rank: 1 / (i + 1),
      module_system: 'esm',
      import_specifier: `./src/module_${i}/index.js`,
      symbols: Array.from({ length: 4 }, (_, j) => ({
        name: `fn${i}_${j}`,
        kind: 'function',
        exported: true,
        export_style: 'named',
        signature: `fn${i}_${j}(input: string, options?: Options): Result`,
        params: [
          { name: 'input', type: 'string' },
          { name: 'options', type: 'Options', optional: true },
        ],
        returns: 'Result',
        doc: `Parses the input and returns a result. Variant ${i}.${j}, with "quotes", unicode é, and \\ escapes.`,
        examples: [`fn${i}_${j}('x') // => { ok: true }`],
        line: 10 + j,
      })),
    };
    size += JSON.stringify(kf).length;
    keyFiles.push(kf);
  }
  return {
    schema_version: '1',
    project: { name: 'bench', module_system: 'esm', typescript: true },
    tree: { files: keyFiles.length, dirs: keyFiles.length, bytes, truncated: false },
    languages: [{ name: 'TypeScript', files: keyFiles.length, bytes }],
    package_managers: [{ name: 'npm', manifest: 'package.json' }],
    frameworks: [],
    test_setup: { framework: 'vitest', test_dirs: ['test'], config_files: ['vitest.config.ts'] },
    entry_points: [{ path: 'src/index.ts', kind: 'main' }],
    key_files: keyFiles,
    usage_examples: [],
    skipped: [],
    notes: [`salt ${salt}`],
  };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function boundaryOverhead(store: RunStore) {
  const rows = [];
  for (const [label, bytes, n] of [
    ['10 KB', 10_000, 300],
    ['100 KB', 100_000, 150],
    ['1 MB', 1_000_000, 30],
  ] as const) {
    const times: number[] = [];
    let replyBytes = 0;
    for (let i = 0; i < n + 5; i++) {
      // One reply at a time, built outside the timed section, as a run holds one reply per boundary.
      const reply = '```json\n' + JSON.stringify(crawlerMap(bytes, i), null, 2) + '\n```';
      replyBytes = reply.length;
      const t0 = performance.now();
      const content = acceptReply('crawler', reply); // sanitize + parse + validate (output schema)
      const art = await store.putArtifact('r_bench', 'crawler_output', content, META); // persist
      // Load (+ integrity check) and build the envelope exactly as the orchestrator does: the verified
      // canonical payload text is spliced in rather than canonicalized a second time.
      const loaded = await store.loadArtifact('r_bench', art.id);
      const env = buildEnvelope(
        {
          schema_version: '1',
          run_id: 'r_bench',
          from_agent: 'crawler',
          to_agent: 'generator',
          artifact_id: art.id,
          payload: loaded.artifact.content,
          params: { depth_level: 'standard' },
        },
        loaded.contentText,
      ); // re-validate + canonical envelope
      const dt = performance.now() - t0;
      if (i >= 5) times.push(dt); // warm-up
      if (env.length === 0) throw new Error('unreachable');
    }
    rows.push({ size: label, reply_bytes: replyBytes, n, p50_ms: +pct(times, 50).toFixed(2), p95_ms: +pct(times, 95).toFixed(2) });
  }
  return rows;
}

async function writeCost(root: string) {
  const rows = [];
  const store = new LowdbStore(path.join(root, 'writecost'));
  await store.init();
  const small = (i: number) => ({ ...crawlerMap(5_000, i) });
  let stored = 0;
  const measure = async (k: number) => {
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const c = small(1e6 + k * 1000 + i);
      const t0 = performance.now();
      await store.putArtifact('r_hist', 'crawler_output', c, META);
      times.push(performance.now() - t0);
      stored++;
    }
    return pct(times, 50);
  };
  for (const target of [1, 100, 1000]) {
    while (stored < target) await store.putArtifact('r_hist', 'crawler_output', small(stored), META).then(() => stored++);
    rows.push({ artifacts_already_stored: target, p50_ms: +(await measure(target)).toFixed(3) });
  }
  const base = rows[0].p50_ms;
  return rows.map((r) => ({ ...r, ratio_vs_1: +(r.p50_ms / base).toFixed(2) }));
}

(async () => {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-bench-'));
  try {
    const store = new LowdbStore(path.join(root, 'boundary'));
    await store.init();
    console.log('\n## Boundary overhead (sanitize + parse + validate + persist + load + re-validate + canonicalize)');
    console.table(await boundaryOverhead(store));
    console.log('goal: p50 ≤ 5 ms at 100 KB');
    console.log('\n## Artifact write cost vs history');
    console.table(await writeCost(root));
    console.log('goal: ≤ 2× the cost at 1');
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
})();
