// Every child process AMTP starts takes its environment from one function (server/src/util/childEnv.ts):
// no key, no header value, nothing named like a secret, and a temporary HOME. The second half reads
// every source file of server/src and finds each call into node:child_process, so a new spawn site
// that inherits AMTP's own environment fails here.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { childEnv, inTempHome } from '../../server/src/util/childEnv';

const ROOT = path.resolve(__dirname, '..', '..');
const PROCESS_CALLS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']);

describe('childEnv: the environment of every child process', () => {
  const parent = {
    PATH: '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_CTYPE: 'C.UTF-8',
    HOME: '/home/person',
    OPENAI_API_KEY: 'sk-secret',
    AZURE_OPENAI_API_KEY: 'az-secret',
    AMTP_HEADERS: '{"X-Token":"hv-secret"}',
    GITHUB_TOKEN: 'ghp_secret',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    NPM_CONFIG__AUTH: 'npm-secret',
    SSH_AUTH_SOCK: '/run/agent.sock',
    // service URLs may carry a password (docs/scale.md): never passed on
    AMTP_STORE: 'postgres://amtp:pg-secret@db.example:5432/amtp',
    AMTP_CACHE: 'redis://:redis-secret@cache.example:6379',
    AMTP_QUEUE: 'valkey://:queue-secret@queue.example:6379',
    DATABASE_URL: 'postgres://u:db-secret@h/d',
    NODE_OPTIONS: '--require /home/person/hook.js',
    GIT_AUTHOR_NAME: 'Person',
    SOMETHING_ELSE: 'x',
  };

  it('keeps what programs need to start, drops every secret and the rest of the parent environment', () => {
    const env = childEnv({ home: '/tmp/amtp-home-x' }, parent);
    assert.deepEqual(Object.keys(env).sort(), [
      'HOME',
      'LANG',
      'LC_CTYPE',
      'PATH',
      'TEMP',
      'TMP',
      'TMPDIR',
      'USERPROFILE',
      'XDG_CACHE_HOME',
      'XDG_CONFIG_HOME',
      'XDG_DATA_HOME',
      'XDG_STATE_HOME',
    ]);
    assert.equal(env.PATH, '/usr/bin:/bin');
    assert.ok(!Object.values(env).some((v) => /secret/.test(v)));
  });

  it('points HOME, TMPDIR and the XDG folders into the temporary folder, whatever a caller sets', () => {
    const env = childEnv(
      { home: '/tmp/h', set: { HOME: '/home/person', TMPDIR: '/tmp', XDG_CONFIG_HOME: '/home/person/.config' } },
      parent,
    );
    assert.equal(env.HOME, '/tmp/h');
    assert.equal(env.TMPDIR, '/tmp/h');
    assert.equal(env.XDG_CONFIG_HOME, path.join('/tmp/h', '.config'));
    assert.equal(env.XDG_STATE_HOME, path.join('/tmp/h', '.local', 'state'));
  });

  it('passes what AMTP sets (coverage, NODE_OPTIONS, a test command pair) but never a secret-named variable', () => {
    const env = childEnv(
      {
        home: '/tmp/h',
        set: {
          NODE_V8_COVERAGE: '/tmp/cov',
          NODE_OPTIONS: '--require "/x/guard.cjs"',
          OPENAI_API_KEY: 'sk-again',
          API_TOKEN: 't',
          NOT_SET: undefined,
        },
      },
      parent,
    );
    assert.equal(env.NODE_V8_COVERAGE, '/tmp/cov');
    assert.equal(env.NODE_OPTIONS, '--require "/x/guard.cjs"', "AMTP's own NODE_OPTIONS, not the parent's");
    assert.equal(env.OPENAI_API_KEY, undefined);
    assert.equal(env.API_TOKEN, undefined);
    assert.ok(!('NOT_SET' in env));
  });

  it('keeps a named variable of the parent only when asked (git: the author identity), and never a secret one', () => {
    assert.equal(childEnv({ home: '/tmp/h' }, parent).GIT_AUTHOR_NAME, undefined);
    const env = childEnv({ home: '/tmp/h', keep: ['GIT_AUTHOR_NAME', 'GITHUB_TOKEN'] }, parent);
    assert.equal(env.GIT_AUTHOR_NAME, 'Person');
    assert.equal(env.GITHUB_TOKEN, undefined);
  });

  it('inTempHome hands out a fresh folder and removes it afterwards', () => {
    const seen = inTempHome((home) => (assert.ok(fs.statSync(home).isDirectory()), home));
    assert.equal(fs.existsSync(seen), false);
  });
});

interface Site {
  where: string;
  call: string;
  problem: string;
}

/** The local names a file binds to node:child_process: functions by name, and namespace imports. */
function childProcessBindings(sf: ts.SourceFile): { fns: Map<string, string>; namespaces: Set<string> } {
  const fns = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!['node:child_process', 'child_process'].includes(st.moduleSpecifier.text)) continue;
    const b = st.importClause?.namedBindings;
    if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
    if (st.importClause?.name) namespaces.add(st.importClause.name.text);
    if (b && ts.isNamedImports(b)) for (const e of b.elements) fns.set(e.name.text, (e.propertyName ?? e.name).text);
  }
  return { fns, namespaces };
}

/** What is wrong with one call into child_process: its options must set `env: childEnv(...)` and no shell. */
function problemOf(call: ts.CallExpression): string | undefined {
  const options = call.arguments.find(ts.isObjectLiteralExpression);
  if (!options) return 'no options object: the child would inherit AMTP’s whole environment';
  const prop = (name: string) =>
    options.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name);
  if (options.properties.some((p) => ts.isSpreadAssignment(p))) return 'options spread from elsewhere';
  const shell = prop('shell');
  if (shell && shell.initializer.kind !== ts.SyntaxKind.FalseKeyword) return 'runs through a shell';
  const env = prop('env');
  if (!env) return 'no env: the child would inherit AMTP’s whole environment';
  const init = env.initializer;
  if (!ts.isCallExpression(init) || init.expression.getText() !== 'childEnv') return `env is \`${init.getText()}\`, not childEnv(...)`;
  return undefined;
}

function spawnSites(file: string): { sites: Site[]; calls: number } {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const { fns, namespaces } = childProcessBindings(sf);
  const sites: Site[] = [];
  let calls = 0;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      const name = ts.isIdentifier(e)
        ? fns.get(e.text)
        : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && namespaces.has(e.expression.text)
          ? e.name.text
          : undefined;
      if (name && PROCESS_CALLS.has(name)) {
        calls++;
        const problem = ['exec', 'execSync'].includes(name) ? 'exec/execSync run a shell command line' : problemOf(n);
        const line = sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
        if (problem) sites.push({ where: `${path.relative(ROOT, file)}:${line}`, call: name, problem });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { sites, calls };
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('every spawn site in server/src takes its env from childEnv', () => {
  it('finds the spawn sites by parsing the sources, and each passes env: childEnv(...) and no shell', () => {
    const all = sources(path.join(ROOT, 'server', 'src')).map(spawnSites);
    const calls = all.reduce((n, s) => n + s.calls, 0);
    // git, the runner, the characterization sandbox, the replays, the confinement probe, three Python probes
    assert.ok(calls >= 8, `only ${calls} spawn site(s) found: the parser no longer sees them`);
    assert.deepEqual(
      all.flatMap((s) => s.sites),
      [],
    );
  });

  it('the check itself catches an inherited environment, a spread, a shell and a namespace import', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amtp-spawnsites-'));
    try {
      const file = path.join(dir, 'bad.ts');
      fs.writeFileSync(
        file,
        [
          "import { spawn as start, execFileSync } from 'node:child_process';",
          "import * as cp from 'child_process';",
          "start('git', ['status']);",
          "execFileSync('node', [], { env: { ...process.env } });",
          "cp.spawnSync('sh', ['-c', 'x'], { env: childEnv({ home: '/tmp' }), shell: true });",
          'cp.execSync("ls");',
          "start('ok', [], { env: childEnv({ home: '/tmp' }) });",
        ].join('\n'),
      );
      const { sites, calls } = spawnSites(file);
      assert.equal(calls, 5);
      assert.deepEqual(
        sites.map((s) => [s.call, s.problem]),
        [
          ['spawn', 'no options object: the child would inherit AMTP’s whole environment'],
          ['execFileSync', 'env is `{ ...process.env }`, not childEnv(...)'],
          ['spawnSync', 'runs through a shell'],
          ['execSync', 'exec/execSync run a shell command line'],
        ],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
