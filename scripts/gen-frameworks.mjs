// Writes every list of framework ids from the one registry (server/src/frameworks/registry.ts), so
// adding a framework is its folder frameworks/<id>/ and a registry line, then this script:
//   - FRAMEWORKS in server/src/core/frameworks.ts (the type every layer checks ids with);
//   - the framework enums of schemas/*.schema.json (with what they list beside the ids: `auto`,
//     detected-only names such as `unittest`) and of package.json's settings;
//   - server/src/contracts/generated.ts from the schemas (scripts/gen-contract-types.mjs).
//   node scripts/gen-frameworks.mjs          write the files
//   node scripts/gen-frameworks.mjs --check  exit 1 when one is out of date (test/unit/singleSource.test.ts)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { generate as generateContractTypes, OUT as CONTRACT_TYPES } from './gen-contract-types.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(root, 'server/src/core/frameworks.ts');
const FRAMEWORKS_LINE = /^export const FRAMEWORKS = \[[^\]]*\] as const;$/m;

/** The registry's ids (its order is the crawler's vote order, not the lists'). */
async function registryIds() {
  const mod = await tsImport(join(root, 'server/src/frameworks/registry.ts'), import.meta.url);
  return Object.keys(mod.FRAMEWORK_REGISTRY);
}

/** The ids core/frameworks.ts lists now: with the registry's, what an enum's framework entries are. */
function coreIds(text) {
  const line = FRAMEWORKS_LINE.exec(text);
  if (!line) throw new Error(`${CORE}: no line "export const FRAMEWORKS = [...] as const;"`);
  return [...line[0].matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

/** An enum that lists frameworks, with the ids in the registry's place: what comes before and after stays. */
function rewriteEnum(values, ids, known) {
  if (!values.some((v) => known.has(v))) return values;
  const first = values.findIndex((v) => known.has(v));
  const rest = values.slice(first).filter((v) => !known.has(v));
  return [...values.slice(0, first), ...ids, ...rest];
}

/** An array written as the old one was: on one line, or one item a line at the old items' indent. */
function layoutLike(list, values) {
  const indent = /\n([ \t]*)\S/.exec(list);
  if (!indent) return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
  const close = /\n([ \t]*)\]$/.exec(list)?.[1] ?? '';
  return `[\n${values.map((v) => indent[1] + JSON.stringify(v)).join(',\n')}\n${close}]`;
}

/** `"enum": [...]` arrays rewritten in place: the file (not prettier's: *.json is hand laid out) keeps its layout. */
function rewriteJson(file, ids, known) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(/"enum":(\s*)(\[[^\]]*\])/g, (all, space, list) => {
    const values = JSON.parse(list);
    const out = rewriteEnum(values, ids, known);
    return JSON.stringify(out) === JSON.stringify(values) ? all : `"enum":${space}${layoutLike(list, out)}`;
  });
  return { file, text, next };
}

/** The files to write, as {file, text, next}: none when every list names the registry's ids. */
export async function plan(registered) {
  registered ??= await registryIds();
  const core = readFileSync(CORE, 'utf8');
  const listed = coreIds(core);
  // The lists keep their order: a new framework comes last, a removed one leaves.
  const ids = [...listed.filter((i) => registered.includes(i)), ...registered.filter((i) => !listed.includes(i))];
  const known = new Set([...ids, ...listed]);
  const edits = [
    {
      file: CORE,
      text: core,
      next: core.replace(FRAMEWORKS_LINE, `export const FRAMEWORKS = [${ids.map((i) => `'${i}'`).join(', ')}] as const;`),
    },
    rewriteJson(join(root, 'package.json'), ids, known),
  ];
  for (const name of readdirSync(join(root, 'schemas'))
    .filter((n) => n.endsWith('.schema.json'))
    .sort())
    edits.push(rewriteJson(join(root, 'schemas', name), ids, known));
  return { ids, edits: edits.filter((e) => e.next !== e.text) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ids, edits } = await plan();
  if (process.argv.includes('--check')) {
    for (const e of edits)
      console.error(`${e.file} does not list the registry's frameworks (${ids.join(', ')}): run npm run gen:frameworks`);
    process.exit(edits.length ? 1 : 0);
  }
  for (const e of edits) {
    writeFileSync(e.file, e.next);
    console.log(`wrote ${e.file}`);
  }
  // The contract types follow the schemas just written.
  const types = await generateContractTypes();
  if (types !== readFileSync(CONTRACT_TYPES, 'utf8')) {
    writeFileSync(CONTRACT_TYPES, types);
    console.log(`wrote ${CONTRACT_TYPES}`);
  }
}
