import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../helpers/cli';
import { makeRepo } from '../helpers/fixtureRepo';
import { makeAddWorkspace } from '../helpers/scriptedModel';

type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool result's structured content is read field by field
  structuredContent?: any;
};

describe('mcp workspace server over stdio (real SDK client)', function () {
  this.timeout(60_000);
  let client: Client;
  let dir: string;
  let outside: string;
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
    outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-outside-'));
    await fsp.writeFile(path.join(outside, 'secret.txt'), 'secret');
    await fsp.symlink(path.join(outside, 'secret.txt'), path.join(dir, 'escape.txt'));
    await fsp.symlink(outside, path.join(dir, 'escape-dir'));
    await fsp.symlink('src/a.ts', path.join(dir, 'inside-link.ts'));
    // The real CLI entry, as an MCP host would spawn it.
    const entry = path.resolve('dist/cli.js');
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, 'mcp', dir], stderr: 'pipe' }));
  });
  after(async () => {
    await client?.close();
    await fsp.rm(outside, { recursive: true, force: true });
  });

  it('lists the tools under names every client accepts, with every parameter described', async () => {
    const tools = (await client.listTools()).tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'repo_read_file',
      'repo_search',
      'repo_tree',
      'tests_generate',
      'tests_lessons',
      'tests_review',
      'tests_run',
    ]);
    for (const t of tools) {
      assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/);
      assert.ok(t.description && t.description.length > 40, t.name);
      for (const [param, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${t.name}.${param} has a description`);
      }
    }
    const generate = tools.find((t) => t.name === 'tests_generate')!;
    assert.deepEqual(Object.keys(generate.inputSchema.properties ?? {}).sort(), [
      'changedSince',
      'commit',
      'depth',
      'framework',
      'intoExisting',
      'only',
      'verify',
    ]);
    assert.match(generate.description!, /or only for the files and symbols in `only` or what changed since `changedSince`/);
  });

  it('repo_tree: sorted entries, ignore rules, default skips, limit and globs', async () => {
    const r = await call('repo_tree', {});
    const paths = r.structuredContent.entries.map((e: { path: string }) => e.path);
    assert.deepEqual(paths, [
      '.amtpignore',
      'bin.dat',
      'escape-dir',
      'escape.txt',
      'inside-link.ts',
      'lat.txt',
      'src',
      'src/a.ts',
      'src/b.js',
    ]);
    assert.deepEqual(
      r.structuredContent.entries.find((e: { path: string }) => e.path === 'src/a.ts'),
      { path: 'src/a.ts', type: 'file', size: 37, language: 'TypeScript' },
    );
    assert.equal(r.structuredContent.truncated, false);
    const limited = await call('repo_tree', { limit: 2 });
    assert.equal(limited.structuredContent.entries.length, 2);
    assert.equal(limited.structuredContent.truncated, true);
    const ts = await call('repo_tree', { include: ['**/*.ts'] });
    assert.deepEqual(
      ts.structuredContent.entries.map((e: { path: string; type: string }) => [e.path, e.type]),
      [
        ['inside-link.ts', 'symlink'],
        ['src/a.ts', 'file'],
      ],
    );
    const sub = await call('repo_tree', { path: 'src', exclude: ['**/*.js'] });
    assert.deepEqual(
      sub.structuredContent.entries.map((e: { path: string }) => e.path),
      ['src/a.ts'],
    );
  });

  it('repo_read_file: content, ranges and truncation', async () => {
    const r = await call('repo_read_file', { path: 'src/b.js', startLine: 2, endLine: 3 });
    assert.equal(r.structuredContent.content, 'line2\nline3\n');
    assert.equal(r.structuredContent.truncated, false);
    const cut = await call('repo_read_file', { path: 'src/b.js', startLine: 1, maxBytes: 8 });
    assert.equal(cut.structuredContent.truncated, true);
    assert.equal((await call('repo_read_file', { path: 'inside-link.ts' })).structuredContent.content.startsWith('export const a'), true);
    assert.match((await call('repo_read_file', { path: 'src/b.js', maxBytes: 5 })).content[0].text, /over the 5-byte limit/);
  });

  it('repo_read_file refuses escapes, binaries and non-UTF-8 with clear errors', async () => {
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
      const r = await call('repo_read_file', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.content[0].text, re, JSON.stringify(args));
    }
    assert.equal((await call('repo_read_file', { path: 'lat.txt', encoding: 'latin1' })).structuredContent.content, 'café\n');
    assert.equal((await call('repo_tree', { path: '../' })).isError, true);
    assert.equal((await call('repo_tree', { path: 'escape-dir' })).isError, true);
  });

  it('repo_search: literal, regex, limits and bad patterns', async () => {
    const lit = await call('repo_search', { query: 'todo: FIND' });
    assert.deepEqual(lit.structuredContent.matches, [{ path: 'src/a.ts', line: 2, text: '// TODO: find me' }]);
    const re = await call('repo_search', { query: '^line\\d$', regex: true, maxResults: 3 });
    assert.equal(re.structuredContent.matches.length, 3);
    assert.equal(re.structuredContent.truncated, true);
    const cs = await call('repo_search', { query: 'todo', caseSensitive: true });
    assert.equal(cs.structuredContent.matches.length, 0);
    const bad = await call('repo_search', { query: '(', regex: true });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /invalid regular expression/);
    const none = await call('repo_search', { query: 'secret' });
    assert.equal(none.structuredContent.matches.length, 0, 'symlinks are not followed out of the root');
  });
});

describe('amtp mcp: generating over stdio, and where it refuses to serve', function () {
  this.timeout(120_000);

  it('tests_generate through the real CLI entry, with the test run confirmed by the client', async () => {
    const ws = await makeAddWorkspace('amtp-mcp-stdio-');
    const client = new Client({ name: 'stdio-host', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.resolve('dist/cli.js'), 'mcp', ws, '--provider', 'offline'],
          stderr: 'pipe',
        }),
      );
      const r = (await client.callTool({ name: 'tests_generate', arguments: { depth: 'smoke' } })) as Result;
      assert.equal(r.structuredContent.status, 'completed', r.content[0].text);
      assert.equal(r.structuredContent.verification.status, 'done');
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^\[high risk\] tests\.run: /);
    } finally {
      await client.close();
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });

  it('without DIR it refuses to serve / or the home folder (exit 2), and serves the current folder otherwise', async () => {
    const root = await runCli(['mcp'], {}, '/');
    assert.equal(root.code, 2);
    assert.match(
      root.stderr,
      /no DIR given and the current folder is the root folder \(\/\); amtp mcp serves one project: pass its folder/,
    );
    const home = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-home-'));
    try {
      const r = await runCli(['mcp'], { HOME: home }, home);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /the current folder is your home folder/);
      // A project folder is served: with stdin closed at once, the server starts and ends cleanly.
      await fsp.mkdir(path.join(home, 'project'));
      const served = await runCli(['mcp'], { HOME: home }, path.join(home, 'project'));
      assert.equal(served.code, 0, served.stderr);
    } finally {
      await fsp.rm(home, { recursive: true, force: true });
    }
  });
});
