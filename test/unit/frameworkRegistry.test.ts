// One folder per framework: every folder under server/src/frameworks/ with an index.ts is a framework,
// listed once in the registry under its own id, with its descriptor, renderer, runner and failure parser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { FRAMEWORKS } from '../../server/src/core/frameworks';
import { FRAMEWORK_REGISTRY } from '../../server/src/frameworks/registry';

const DIR = path.resolve(__dirname, '../../server/src/frameworks');

describe('framework registry', () => {
  it('lists every framework id once, each under the id its descriptor names', () => {
    assert.deepEqual(Object.keys(FRAMEWORK_REGISTRY).sort(), [...FRAMEWORKS].sort());
    for (const [id, d] of Object.entries(FRAMEWORK_REGISTRY)) {
      assert.equal(d.id, id);
      assert.equal(d.renderer.id, id);
    }
  });

  it('has one folder per framework, named by its id, holding its descriptor, renderer, runner and failure parser', () => {
    const folders = fs
      .readdirSync(DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory() && fs.existsSync(path.join(DIR, e.name, 'index.ts')))
      .map((e) => e.name);
    assert.deepEqual(folders.sort(), [...FRAMEWORKS].sort());
    for (const id of FRAMEWORKS)
      for (const file of ['index.ts', 'render.ts', 'runner.ts', 'failure.ts'])
        assert.ok(fs.existsSync(path.join(DIR, id, file)), `${id}/${file}`);
  });
});
