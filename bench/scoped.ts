// A scoped run from the editor (a CodeLens click) on a warm language server: how long until its
// first case is in the tree, on a 50-file project, against a whole-workspace run measured in the
// same process. Figures, not asserts. Run: npm run bench -- scoped
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AmtpService } from '../server/src/lsp/service';
import type * as P from '../server/src/protocol';
import { FakeClient } from '../test/helpers/fakeClient';

const FILES = 50;
const ROUNDS = 5;
const settings: P.ServerSettings = { provider: 'offline', approvalTimeoutSeconds: 30, verify: false };

/** A CommonJS package of `FILES` modules, each a documented function with an @example. */
async function project(): Promise<string> {
  const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-bench-scoped-')), 'fifty');
  await fsp.mkdir(path.join(ws, 'lib'), { recursive: true });
  await fsp.writeFile(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'fifty', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
  );
  const names = Array.from({ length: FILES - 2 }, (_, i) => `scale${i}`);
  for (const [i, name] of names.entries()) {
    const body = `/**\n * Multiplies a number by ${i + 2}.\n * @param {number} x\n * @returns {number}\n * @example\n * ${name}(3) // => ${3 * (i + 2)}\n */\nfunction ${name}(x) {\n  return x * ${i + 2};\n}\nmodule.exports = { ${name} };\n`;
    await fsp.writeFile(path.join(ws, 'lib', `${name}.js`), body);
  }
  await fsp.writeFile(path.join(ws, 'index.js'), names.map((n) => `exports.${n} = require('./lib/${n}').${n};`).join('\n') + '\n');
  await fsp.writeFile(
    path.join(ws, 'README.md'),
    `# fifty\n\n\`\`\`js\nconst { scale0 } = require('fifty');\nscale0(5) // => 10\n\`\`\`\n`,
  );
  return ws;
}

/** Milliseconds from the request until the first view of the run that lists a case, and until the run ends. */
async function timed(
  svc: AmtpService,
  client: FakeClient,
  params: P.GenerateParams,
): Promise<{ firstCase: number; end: number; cases: number }> {
  const t0 = performance.now();
  const seen = client.views.length;
  const { runId } = await svc.generate(params);
  let firstCase = NaN;
  for (;;) {
    const view = client.views.slice(seen).find((v) => v.runId === runId && v.cases.length > 0);
    if (view && Number.isNaN(firstCase)) firstCase = performance.now() - t0;
    const last = client.viewsOf(runId).at(-1);
    if (last && !['running', 'pending'].includes(last.status)) {
      await svc.idle();
      return { firstCase, end: performance.now() - t0, cases: last.cases.length };
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const ws = await project();
  const client = new FakeClient();
  const svc = new AmtpService(ws, client.port, { trusted: true, settings });
  // Warm: the server has done one crawl of the workspace (modules and parsers loaded), as after opening it.
  await svc.crawl();
  const full: number[] = [];
  const scoped: number[] = [];
  const ends: number[] = [];
  let counts = { full: 0, scoped: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    const f = await timed(svc, client, { depth: 'standard', framework: 'auto' });
    const s = await timed(svc, client, { depth: 'standard', framework: 'auto', scope: { only: [`lib/scale${i}.js#scale${i}`] } });
    full.push(f.firstCase);
    scoped.push(s.firstCase);
    ends.push(s.end);
    counts = { full: f.cases, scoped: s.cases };
  }
  const m = { full: median(full), scoped: median(scoped) };
  console.log(`\nscoped run on a warm server, ${FILES}-file project (offline, no verification; median of ${ROUNDS}):`);
  console.log('| run | cases | first case in the tree | run ended |\n|---|---:|---:|---:|');
  console.log(`| whole workspace | ${counts.full} | ${m.full.toFixed(0)} ms | — |`);
  console.log(`| one function (CodeLens) | ${counts.scoped} | ${m.scoped.toFixed(0)} ms | ${median(ends).toFixed(0)} ms |`);
  console.log(`scoped / whole-workspace time to first case: ${(m.scoped / m.full).toFixed(2)}×; goal: first case ≤ 2000 ms`);
  await fsp.rm(path.dirname(ws), { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
