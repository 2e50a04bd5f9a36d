// The one way tests copy a fixture workspace: a fresh temporary folder holding a copy under a
// fixed name (so two copies give byte-identical maps), removed with `remove`.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');
export const SAMPLE_LIB = path.join(REPO, 'examples/sample-lib');
export const FIXTURES = path.join(REPO, 'test/fixtures');

/** A copy of `src` at <new temp dir>/<name>; the temp dir is under the OS temp folder unless `under` says. */
export async function copyWorkspace(src: string, name = path.basename(src), under = os.tmpdir()): Promise<string> {
  await fsp.mkdir(under, { recursive: true });
  const ws = path.join(await fsp.mkdtemp(path.join(under, `amtp-${name}-`)), name);
  await fsp.cp(src, ws, { recursive: true });
  return ws;
}

/** Removes a workspace made by copyWorkspace (its temporary parent folder too). */
export function removeWorkspace(ws: string): Promise<void> {
  return fsp.rm(path.dirname(ws), { recursive: true, force: true });
}

/** The person's own node:test file of the padkit fixture (verifier-buggy), as it was before a run. */
export const PADKIT_OWN_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { upper } = require('..');\n\ntest('mine: upper', () => {\n  assert.equal(upper('x'), 'X');\n});\n";

/**
 * padkit (test/fixtures/verifier-buggy) with the person's own test file test/padkit.test.js. Its
 * zeroPad contradicts its README, so AMTP's test of it is quarantined (a possible bug).
 */
export async function padkitWithOwnTest(): Promise<string> {
  const ws = await copyWorkspace(path.join(FIXTURES, 'verifier-buggy'), 'padkit');
  await fsp.mkdir(path.join(ws, 'test'));
  await fsp.writeFile(path.join(ws, 'test/padkit.test.js'), PADKIT_OWN_TEST);
  return ws;
}

/**
 * A temporary workspace of `files` whose node_modules links this repo's `packages` (ava, tap): a
 * written test file runs there under the real runner, and what the runner writes (ava's cache,
 * tap's .tap folder) stays inside it, not in the repo's node_modules. Remove it with removeWorkspace.
 */
export async function runnerWorkspace(files: Record<string, string>, packages: string[]): Promise<string> {
  const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-runner-')), 'ws');
  await fsp.mkdir(path.join(ws, 'node_modules'), { recursive: true });
  for (const p of packages) await fsp.symlink(path.join(REPO, 'node_modules', p), path.join(ws, 'node_modules', p), 'dir');
  for (const [name, text] of Object.entries({ 'package.json': '{ "name": "ws", "version": "1.0.0" }\n', ...files })) {
    await fsp.mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await fsp.writeFile(path.join(ws, name), text);
  }
  return ws;
}
