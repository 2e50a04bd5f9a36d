// VS Code (lsp/), the CLI and MCP (cli/, mcp/) build a run one way: each turns its own settings or
// flags into a provider, an approver and risks, and app/runDeps.ts builds the rest; running a run's
// written tests goes through app/testRun.ts (its gateway: asked, recorded, audited). A front door
// that wires the stages, the store and scale services, the risk policy or a gateway itself fails here.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const FRONT_DOORS = ['server/src/lsp', 'server/src/cli', 'server/src/mcp'];
/** What app/ does for every front door: calling these from one is a second way to build a run. */
const APP_ONLY = new Set(['standardRun', 'scaleDeps', 'runPolicy', 'Gateway']);

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tsFiles(path.posix.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.posix.join(dir, e.name)] : [],
    );
}

/** Calls (and `new`) in `text` of a name app/ keeps to itself. */
function wiresItself(file: string, text: string): string[] {
  const out: string[] = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node) => {
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && ts.isIdentifier(n.expression) && APP_ONLY.has(n.expression.text))
      out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1} ${n.expression.text}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

describe('front doors: VS Code, CLI and MCP build runs through app/', () => {
  it('no front door wires stages, store and scale services, the risk policy or a gateway itself', () => {
    assert.deepEqual(
      FRONT_DOORS.flatMap(tsFiles).flatMap((f) => wiresItself(f, read(f))),
      [],
    );
  });

  it('each builds its runs with runDeps, and runs written tests with gatedTestRun', () => {
    for (const f of ['server/src/lsp/service.ts', 'server/src/cli/pipeline.ts']) assert.match(read(f), /\brunDeps\(/, f);
    // VS Code's amtp/runTests lives in lsp/runTestsRequest.ts (service.ts hands it over)
    for (const f of ['server/src/lsp/runTestsRequest.ts', 'server/src/cli/mcpRuns.ts']) assert.match(read(f), /\bgatedTestRun\(/, f);
    // the CLI's generate and MCP's tests_generate both go through cli/pipeline.ts's pipelineDeps
    for (const f of ['server/src/cli/runCommands.ts', 'server/src/cli/mcpRuns.ts']) assert.match(read(f), /\bpipelineDeps\(/, f);
  });

  it('the check finds a planted second wiring', () => {
    assert.deepEqual(
      wiresItself(
        'x.ts',
        'const deps = { ...standardRun(), ...(await runPolicy(ws)) };\nconst g = new Gateway(id, a, log);\nrunDeps({});\n',
      ),
      ['x.ts:1 standardRun', 'x.ts:1 runPolicy', 'x.ts:2 Gateway'],
    );
  });
});
