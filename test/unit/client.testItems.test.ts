// The Testing view's items (issue 27): AMTP's test files and the workspace's own, each once; the
// ids of the person's tests; which file events change the list; how their tests are asked to run.
import { strict as assert } from 'node:assert';
import { fileItemId, lineSortText, listedFiles, mayBeTestFile, ownFilesRequest, ownTestId } from '../../client/src/model/testItems';

describe('client: Testing view items', () => {
  it("lists AMTP's files and the workspace's once each, sorted, marking which a run wrote", () => {
    assert.deepEqual(listedFiles(['test/lib.amtp.test.js'], ['test/own.test.js', 'test/lib.amtp.test.js', 'a.test.js']), [
      { file: 'a.test.js', amtp: false },
      { file: 'test/lib.amtp.test.js', amtp: true },
      { file: 'test/own.test.js', amtp: false },
    ]);
  });

  it("keeps every one of AMTP's files and cuts the workspace's at the limit", () => {
    const theirs = Array.from({ length: 10 }, (_, i) => `t/${i}.test.js`);
    const listed = listedFiles(['x.amtp.test.js', 'y.amtp.test.js'], theirs, 5);
    assert.equal(listed.length, 5);
    assert.deepEqual(
      listed.filter((f) => f.amtp).map((f) => f.file),
      ['x.amtp.test.js', 'y.amtp.test.js'],
    );
    assert.equal(listedFiles(['a', 'b', 'c'], theirs, 2).length, 3, "AMTP's files are never cut");
  });

  it("names the person's tests by file and full name, and sorts children by line", () => {
    assert.equal(ownTestId('test/own.test.js', { name: 'adds', suites: ['math', 'add'] }), 'own:test/own.test.js::math add adds');
    assert.equal(fileItemId('test/own.test.js'), 'file:test/own.test.js');
    assert.ok(lineSortText(9) < lineSortText(10));
  });

  it('relists on code files only, never inside node_modules, .amtp or .git', () => {
    assert.ok(mayBeTestFile('test/own.test.js'));
    assert.ok(mayBeTestFile('tests/test_mod.py'));
    assert.ok(mayBeTestFile('src/a.spec.tsx'));
    assert.equal(mayBeTestFile('README.md'), false);
    assert.equal(mayBeTestFile('node_modules/dep/x.test.js'), false);
    assert.equal(mayBeTestFile('.amtp/runs/r.js'), false);
    assert.equal(mayBeTestFile('pkg/.git/hooks/a.js'), false);
  });

  it('asks for whole files, or for the named tests when only some were picked', () => {
    const tests = [
      { file: 'b.test.js', name: 'one', suites: [] },
      { file: 'a.test.js', name: 'two', suites: ['s'] },
      { file: 'b.test.js', name: 'three', suites: [] },
    ];
    assert.deepEqual(ownFilesRequest(tests, true), { files: ['a.test.js', 'b.test.js'] });
    assert.deepEqual(ownFilesRequest(tests, false), { files: ['a.test.js', 'b.test.js'], ownTests: tests });
  });
});
