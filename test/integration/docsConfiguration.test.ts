// docs/configuration.md stays true: every provider has a section, every flag, setting and
// environment variable it names exists, the price table parses, and every `amtp generate` example
// runs against the loopback fake (its host names replaced) and sends what the page says.
import { strict as assert } from 'node:assert';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseCli } from '../../server/src/cli/args';
import { PROVIDERS } from '../../server/src/core/providers';
import { SETTING_KEYS } from '../../server/src/core/settings';
import { parsePriceTable } from '../../server/src/usage/priceTable';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

const ROOT = path.resolve(__dirname, '../..');
const DOC = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
const blocks = (lang: string) => [...DOC.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

/** Every .ts file under server/src, concatenated: where an environment variable must be read. */
async function serverSource(dir = path.join(ROOT, 'server/src')): Promise<string> {
  let out = '';
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out += e.isDirectory() ? await serverSource(p) : e.name.endsWith('.ts') ? await fsp.readFile(p, 'utf8') : '';
  }
  return out;
}

/** `export X=Y` lines and the `amtp …` line of a shell example; single quotes group words. */
function parseExample(block: string): { env: Record<string, string>; args: string[] } {
  const env: Record<string, string> = {};
  let args: string[] = [];
  for (const line of block.split('\n')) {
    const exp = /^export (\w+)=(\S+)$/.exec(line.trim());
    if (exp) env[exp[1]] = exp[2];
    else if (line.startsWith('amtp ')) args = [...line.slice(5).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
  }
  return { env, args };
}

describe('docs/configuration.md', function () {
  this.timeout(120_000);

  it('has a section and a table row for every provider', () => {
    for (const p of PROVIDERS) {
      assert.match(DOC, new RegExp(`^\\| \`${p}\` \\|`, 'm'), `${p} in the provider table`);
      assert.match(DOC, new RegExp(`^## .*${p === 'openai' ? 'OpenAI' : p === 'azure' ? 'Azure' : p}`, 'm'), `${p} has a section`);
    }
  });

  it('every flag it names exists, and applies to generate', () => {
    const flags = new Set([...DOC.matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1]));
    assert.ok(flags.size >= 10, [...flags].join(' '));
    for (const f of flags) {
      try {
        parseCli(['generate', `--${f}`, ...(f.startsWith('no-') ? [] : ['1'])]);
      } catch (e) {
        assert.doesNotMatch((e as Error).message, /Unknown option|does not apply/, `--${f}`);
      }
    }
  });

  it('every amtp.* setting it names is declared, and every endpoint setting is documented', () => {
    const named = new Set([...DOC.matchAll(/`amtp\.([A-Za-z.]+)`/g)].map((m) => m[1]));
    for (const k of named) assert.ok((SETTING_KEYS as string[]).includes(k), `amtp.${k} is not a setting`);
    for (const k of [
      'provider',
      'baseURL',
      'azureEndpoint',
      'azureDeployment',
      'azureApiVersion',
      'headers',
      'model',
      'modelTimeoutSeconds',
      'maxOutputTokens',
      'structuredOutput',
      'priceTable',
    ]) {
      assert.match(DOC, new RegExp(`^\\| \`amtp\\.${k}\``, 'm'), `amtp.${k} in the settings table`);
    }
  });

  it('every environment variable it names is read by the server code', async () => {
    const src = await serverSource();
    const vars = new Set([...DOC.matchAll(/\b((?:AMTP|OPENAI|AZURE_OPENAI)_[A-Z_]+)\b/g)].map((m) => m[1]));
    assert.ok(vars.size >= 15, [...vars].join(' '));
    for (const v of vars) assert.ok(src.includes(v), `${v} is documented but never read`);
  });

  it('the price table example parses', () => {
    const [json] = blocks('json');
    assert.deepEqual(Object.keys(parsePriceTable(JSON.parse(json), 'docs')), ['gpt-4o-mini', 'gpt-4o']);
  });

  it('every amtp generate example runs against a loopback endpoint and sends what the page says', async () => {
    const examples = blocks('sh')
      .filter((b) => b.includes('amtp generate'))
      .map(parseExample);
    assert.equal(examples.length, 8, 'offline, Ollama, LM Studio, vLLM, OpenAI, OpenRouter, Azure classic, Azure v1, and none forgotten');
    const fake = await new FakeOpenAi(goodModel).start();
    const made: string[] = [];
    try {
      for (const ex of examples) {
        // Each example on a fresh copy: a second run over the first one's test file would wait for approval to overwrite it.
        const ws = await makeAddWorkspace();
        made.push(path.dirname(ws));
        const before = fake.requests.length;
        // Host names become the fake's; paths stay, so each URL form is what reaches it.
        const env = Object.fromEntries(Object.entries(ex.env).map(([k, v]) => [k, v.replace(/^https?:\/\/[^/]+/, fake.origin)]));
        // The OpenAI example names no URL (api.openai.com): it goes to the fake too, never to the network.
        if (ex.env.OPENAI_API_KEY && !ex.env.OPENAI_BASE_URL) env.OPENAI_BASE_URL = fake.baseURL;
        // --no-verify --no-characterize: the page is about endpoints; running workspace code would wait for approval without a TTY.
        const r = await runCli([...ex.args, ws, '--no-verify', '--no-characterize', '--json'], {
          ...env,
          AMTP_CACHE_DIR: path.join(path.dirname(ws), 'cache'),
          AMTP_BACKOFF_SCALE: '0.001',
        });
        const label = `${Object.entries(ex.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')} amtp ${ex.args.join(' ')}`;
        assert.equal(r.code, 0, `${label}\n${r.stderr}`);
        assert.equal(JSON.parse(r.stdout).status, 'completed', label);
        const sent = fake.requests.slice(before);
        const provider = ex.args[ex.args.indexOf('--provider') + 1];
        assert.equal(sent.length, provider === 'offline' ? 0 : 3, label);
        for (const q of sent) {
          const model = ex.args.includes('--model') ? ex.args[ex.args.indexOf('--model') + 1] : undefined;
          if (model && !ex.args.includes('--azure-deployment')) assert.equal(q.body.model, model, label);
          if (provider === 'azure') assert.equal(q.headers['api-key'], ex.env.AZURE_OPENAI_API_KEY, label);
          else assert.equal(q.headers.authorization, ex.env.OPENAI_API_KEY ? `Bearer ${ex.env.OPENAI_API_KEY}` : undefined, label);
          for (const h of ex.args.filter((_, i) => ex.args[i - 1] === '--header')) {
            const i = h.indexOf(':');
            assert.equal(q.headers[h.slice(0, i).toLowerCase()], h.slice(i + 1).trim(), label);
          }
        }
        if (ex.args.includes('--azure-deployment'))
          assert.match(sent[0].path, /^\/openai\/deployments\/gpt-4o-mini\/chat\/completions\?api-version=2024-10-21$/);
        if (ex.env.AZURE_OPENAI_ENDPOINT?.endsWith('/openai/v1')) assert.equal(sent[0].path, '/openai/v1/chat/completions');
      }
    } finally {
      await fake.stop();
      for (const dir of made) await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
