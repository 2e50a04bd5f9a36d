// One source for each list: the protocol's messages, the frameworks, the tool names and the
// providers. Every place that spells a list out is compared with its source here.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { wireClient } from '../../client/src/wiring';
import { parseCli } from '../../server/src/cli/args';
import { SCHEMAS } from '../../server/src/contracts/schemas';
import { FRAMEWORKS, FRAMEWORK_CHOICES, DEPTHS } from '../../server/src/core/frameworks';
import { PROVIDERS } from '../../server/src/core/providers';
import { TOOL_NAMES } from '../../server/src/core/risk';
import { RENDERERS, frameworkConventions } from '../../server/src/frameworks';
import { wireService } from '../../server/src/lsp/wiring';
import * as P from '../../server/src/protocol';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
const setting = (key: string) => pkg.contributes.configuration.properties[`amtp.${key}`];

interface FrameworkLists {
  ids: string[];
  edits: { file: string; text: string; next: string }[];
}
/** scripts/gen-frameworks.mjs's plan: the files to write for the registry's ids (or these). */
async function frameworkLists(registered?: string[]): Promise<FrameworkLists> {
  // A real dynamic import: the generator is an ES module script, not part of the bundles.
  const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<{ plan(r?: string[]): Promise<FrameworkLists> }>;
  const gen = await importEsm(pathToFileURL(path.resolve(__dirname, '../../scripts/gen-frameworks.mjs')).href);
  return gen.plan(registered);
}

/** A Receiver that records what was registered. */
function recorder(): P.Receiver & { methods: string[] } {
  const methods: string[] = [];
  const registered = (method: string) => (methods.push(method), { dispose: () => undefined });
  return { methods, onRequest: (t) => registered(t.method), onNotification: (t) => registered(t.method) };
}

/** Walks a JSON Schema and returns every enum found under a property of this name. */
function enumsOf(schema: unknown, prop: string): string[][] {
  const found: string[][] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const props = (node as { properties?: Record<string, { enum?: string[] }> }).properties;
    if (props?.[prop]?.enum) found.push(props[prop].enum!);
    for (const v of Object.values(node)) walk(v);
  };
  walk(schema);
  return found;
}

describe('single sources', () => {
  it('protocol: the server wires every client→server message and the client every server→client one', () => {
    const byDirection = (d: P.MessageDirection) =>
      P.MESSAGES.filter((m) => m.messageDirection === d)
        .map((m) => m.method)
        .sort();
    const server = recorder();
    wireService(
      server,
      () => assert.fail('not called while wiring'),
      (fn) => async (a) => fn(a),
    );
    assert.deepEqual(server.methods.sort(), byDirection(P.MessageDirection.clientToServer));
    const client = recorder();
    wireClient(client, { runChanged: () => undefined, requestApproval: async () => ({ decision: 'rejected' }) });
    assert.deepEqual(client.methods.sort(), byDirection(P.MessageDirection.serverToClient));
    assert.equal(new Set(P.MESSAGES.map((m) => m.method)).size, P.MESSAGES.length, 'method names are unique');
    for (const m of P.MESSAGES) assert.match(m.method, /^amtp\/[a-z][A-Za-z]+$/);
  });

  it('frameworks: renderers, CLI, settings, schemas and prompts list exactly FRAMEWORKS', () => {
    assert.deepEqual(Object.keys(RENDERERS).sort(), [...FRAMEWORKS].sort());
    assert.deepEqual(setting('defaultFramework').enum, [...FRAMEWORK_CHOICES]);
    assert.deepEqual(setting('defaultDepth').enum, [...DEPTHS]);
    for (const f of FRAMEWORK_CHOICES) assert.equal(parseCli(['generate', '--framework', f]).values.framework, f);
    assert.throws(() => parseCli(['generate', '--framework', 'jasmine']), /must be one of auto, jest/);
    const exact = [...enumsOf(SCHEMAS['engineer-output'], 'framework'), ...enumsOf(SCHEMAS['repair-input'], 'framework')];
    assert.ok(exact.length >= 2);
    for (const e of exact) assert.deepEqual(e, [...FRAMEWORKS]);
    for (const e of enumsOf(SCHEMAS['handoff-envelope'], 'target_framework')) assert.deepEqual(e, [...FRAMEWORK_CHOICES]);
    // Detected frameworks: ours plus the ones a project may use that AMTP does not render.
    for (const e of [...enumsOf(SCHEMAS['crawler-output'], 'framework'), ...enumsOf(SCHEMAS['test-cases'], 'framework')]) {
      assert.deepEqual(e.slice(0, FRAMEWORKS.length), [...FRAMEWORKS], JSON.stringify(e));
    }
    // The engineer's envelope carries the conventions of its framework; each framework has them.
    for (const f of FRAMEWORKS) assert.match(frameworkConventions(f), new RegExp(`^${f === 'node-test' ? 'node:test' : f}:`));
    for (const e of enumsOf(SCHEMAS['engineer-input'], 'framework')) assert.deepEqual(e, [...FRAMEWORKS]);
  });

  it('frameworks: every list of ids is the one npm run gen:frameworks writes from frameworks/registry.ts', async function () {
    this.timeout(30_000);
    const { edits } = await frameworkLists();
    assert.deepEqual(
      edits.map((e) => path.relative(path.resolve(__dirname, '../..'), e.file)),
      [],
      'stale framework lists: run npm run gen:frameworks',
    );
  });

  it('frameworks: a registry line added or removed reaches core, the schemas and the settings, in their order and layout', async function () {
    this.timeout(30_000);
    const added = await frameworkLists([...FRAMEWORKS, 'jasmine']);
    assert.deepEqual(added.ids, [...FRAMEWORKS, 'jasmine']);
    const changed = (e: { text: string; next: string }) => {
      const before = new Set(e.text.split('\n'));
      return e.next.split('\n').filter((l) => !before.has(l));
    };
    const byName = new Map(added.edits.map((e) => [path.basename(e.file), changed(e)]));
    assert.deepEqual(byName.get('frameworks.ts'), [
      `export const FRAMEWORKS = [${[...FRAMEWORKS, 'jasmine'].map((f) => `'${f}'`).join(', ')}] as const;`,
    ]);
    // A one-line enum stays on its line, detected-only names after the ids; a multi-line one gains a line.
    assert.ok(byName.get('crawler-output.schema.json')?.some((l) => l.includes('"node-tap", "jasmine", "unittest", "none"]')));
    assert.deepEqual(byName.get('package.json'), ['            "node-tap",', '            "jasmine"']);
    for (const schema of ['engineer-input', 'engineer-output', 'repair-input', 'round-input', 'handoff-envelope', 'test-cases'])
      assert.ok(byName.has(`${schema}.schema.json`), schema);
    const removed = await frameworkLists(FRAMEWORKS.filter((f) => f !== 'ava'));
    assert.equal(removed.edits.length, added.edits.length);
    const enums = (node: unknown): unknown[][] =>
      !node || typeof node !== 'object'
        ? []
        : Object.entries(node).flatMap(([k, v]) => (k === 'enum' && Array.isArray(v) ? [v] : enums(v)));
    for (const e of removed.edits) {
      if (e.file.endsWith('.ts')) assert.doesNotMatch(e.next, /'ava'/);
      else for (const list of enums(JSON.parse(e.next))) assert.ok(!list.includes('ava'), `${e.file}: ${JSON.stringify(list)}`);
    }
  });

  it('tool names: the riskOverrides setting and the CLI --risk flag accept exactly TOOL_NAMES', () => {
    assert.deepEqual(setting('riskOverrides').propertyNames.enum, TOOL_NAMES);
    for (const t of TOOL_NAMES) assert.deepEqual(parseCli(['generate', '--risk', `${t}=medium`]).values.risk, [`${t}=medium`]);
    assert.throws(() => parseCli(['generate', '--risk', 'test.run=low']), /unknown tool "test.run"/);
  });

  it('providers: the setting and the CLI accept exactly PROVIDERS', () => {
    assert.deepEqual(setting('provider').enum, [...PROVIDERS]);
    for (const p of PROVIDERS) assert.equal(parseCli(['generate', '--provider', p]).values.provider, p);
  });
});
