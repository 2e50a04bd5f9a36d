import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from '../helpers/fixtureRepo';

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

describe('mcp workspace server over stdio (real SDK client)', function () {
  this.timeout(60_000);
  let client: Client;
  let dir: string;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

  before(async () => {
    dir = await makeRepo('stdio', {
      'src/a.ts': 'export const a = 1;\n// TODO: find me\n',
      'src/b.js': 'line1\nline2\nline3\nline4\n',
      'ignored.log': 'x',
      '.amtpignore': '*.log\n',
      'node_modules/x/index.js': 'x',
      'lat.txt': Buffer.from('caf\xe9\n', 'latin1'),
      'bin.dat': Buffer.from([1, 0, 2]),
    });
    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-outside-'));
    await fsp.writeFile(path.join(outside, 'secret.txt'), 'secret');
    await fsp.symlink(path.join(outside, 'secret.txt'), path.join(dir, 'escape.txt'));
    await fsp.symlink(outside, path.join(dir, 'escape-dir'));
    await fsp.symlink('src/a.ts', path.join(dir, 'inside-link.ts'));
    // The real CLI entry, as an MCP host would spawn it.
    const entry = path.resolve('dist/cli.js');
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, 'mcp', dir], stderr: 'pipe' }));
  });
  after(async () => client?.close());

  it('lists the three tools', async () => {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), ['repo.read_file', 'repo.search', 'repo.tree']);
  });

  it('repo.tree: sorted entries, ignore rules, default skips, limit and globs', async () => {
    const r = await call('repo.tree', {});
    const paths = r.structuredContent.entries.map((e: { path: string }) => e.path);
    assert.deepEqual(paths, ['.amtpignore', 'bin.dat', 'escape-dir', 'escape.txt', 'inside-link.ts', 'lat.txt', 'src', 'src/a.ts', 'src/b.js']);
    assert.deepEqual(r.structuredContent.entries.find((e: { path: string }) => e.path === 'src/a.ts'), { path: 'src/a.ts', type: 'file', size: 37, language: 'TypeScript' });
    assert.equal(r.structuredContent.truncated, false);
    const limited = await call('repo.tree', { limit: 2 });
    assert.equal(limited.structuredContent.entries.length, 2);
    assert.equal(limited.structuredContent.truncated, true);
    const ts = await call('repo.tree', { include: ['**/*.ts'] });
    assert.deepEqual(ts.structuredContent.entries.map((e: { path: string; type: string }) => [e.path, e.type]), [['inside-link.ts', 'symlink'], ['src/a.ts', 'file']]);
    const sub = await call('repo.tree', { path: 'src', exclude: ['**/*.js'] });
    assert.deepEqual(sub.structuredContent.entries.map((e: { path: string }) => e.path), ['src/a.ts']);
  });

  it('repo.read_file: content, ranges and truncation', async () => {
    const r = await call('repo.read_file', { path: 'src/b.js', startLine: 2, endLine: 3 });
    assert.equal(r.structuredContent.content, 'line2\nline3\n');
    assert.equal(r.structuredContent.truncated, false);
    const cut = await call('repo.read_file', { path: 'src/b.js', startLine: 1, maxBytes: 8 });
    assert.equal(cut.structuredContent.truncated, true);
    assert.equal((await call('repo.read_file', { path: 'inside-link.ts' })).structuredContent.content.startsWith('export const a'), true);
    assert.match((await call('repo.read_file', { path: 'src/b.js', maxBytes: 5 })).content[0].text, /over the 5-byte limit/);
  });

  it('repo.read_file refuses escapes, binaries and non-UTF-8 with clear errors', async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ path: '../etc/passwd' }, /'\.\.' is refused/],
      [{ path: 'src/../../x' }, /'\.\.' is refused/],
      [{ path: '/etc/passwd' }, /absolute paths are refused/],
      [{ path: 'src\\..\\..\\x' }, /backslashes/],
      [{ path: 'escape.txt' }, /leaves the workspace through a symlink/],
      [{ path: 'escape-dir/secret.txt' }, /leaves the workspace through a symlink/],
      [{ path: 'bin.dat' }, /binary file/],
      [{ path: 'lat.txt' }, /not valid UTF-8; pass encoding: "latin1"/],
      [{ path: 'nope.txt' }, /not found/],
      [{ path: 'src' }, /is a directory/],
    ];
    for (const [args, re] of refusals) {
      const r = await call('repo.read_file', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.content[0].text, re, JSON.stringify(args));
    }
    assert.equal((await call('repo.read_file', { path: 'lat.txt', encoding: 'latin1' })).structuredContent.content, 'café\n');
    assert.equal((await call('repo.tree', { path: '../' })).isError, true);
    assert.equal((await call('repo.tree', { path: 'escape-dir' })).isError, true);
  });

  it('repo.search: literal, regex, limits and bad patterns', async () => {
    const lit = await call('repo.search', { query: 'todo: FIND' });
    assert.deepEqual(lit.structuredContent.matches, [{ path: 'src/a.ts', line: 2, text: '// TODO: find me' }]);
    const re = await call('repo.search', { query: '^line\\d$', regex: true, maxResults: 3 });
    assert.equal(re.structuredContent.matches.length, 3);
    assert.equal(re.structuredContent.truncated, true);
    const cs = await call('repo.search', { query: 'todo', caseSensitive: true });
    assert.equal(cs.structuredContent.matches.length, 0);
    const bad = await call('repo.search', { query: '(', regex: true });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /invalid regular expression/);
    const none = await call('repo.search', { query: 'secret' });
    assert.equal(none.structuredContent.matches.length, 0, 'symlinks are not followed out of the root');
  });
});
