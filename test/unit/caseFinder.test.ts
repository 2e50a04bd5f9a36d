// Reading a runner's reported name back to its case (frameworks/caseMap.ts caseFinder): the longest
// match wins across files as within one, as testOfResult reads one file.
import { strict as assert } from 'node:assert';
import { caseFinder, testOfResult, testsInFile } from '../../server/src/frameworks/caseMap';

const SHA1 = `describe('lib/sha1.js (AMTP)', () => {
  it('pins current behaviour: create() leaves the observed state', () => { // tc_111111111111
  });
  it('digest', () => { // tc_111111111112
  });
});
`;
const SHA256 = `describe('lib/sha256.js (AMTP)', () => {
  it('pins current behaviour: create() leaves the observed state', () => { // tc_222222222221
  });
  describe('nested suite', () => {
    it('digest', () => { // tc_222222222222
    });
  });
  it('their own test', () => {});
});
`;

describe('caseFinder: a reported name to its case', () => {
  const sha1 = testsInFile('test/sha1.test.js', SHA1);
  const sha256 = testsInFile('test/sha256.test.js', SHA256);

  it("takes the test of the file whose describe the name carries, not the first file's test of that title", () => {
    const find = caseFinder([sha1, sha256], false);
    assert.equal(find('lib/sha256.js (AMTP) pins current behaviour: create() leaves the observed state'), 'tc_222222222221');
    assert.equal(find('lib/sha1.js (AMTP) pins current behaviour: create() leaves the observed state'), 'tc_111111111111');
    assert.equal(find('lib/sha256.js (AMTP) nested suite digest'), 'tc_222222222222');
    assert.equal(find('lib/sha1.js (AMTP) digest'), 'tc_111111111112');
  });

  it('reads a title alone, after a mutant label or after `file › `, and a person’s own test or an unknown name as no case', () => {
    const find = caseFinder([sha1, sha256], false);
    assert.equal(find('test/sha256.test.js › lib/sha256.js (AMTP) nested suite digest'), 'tc_222222222222');
    assert.equal(find('[mutant 12] lib/sha1.js (AMTP) digest'), 'tc_111111111112');
    // a title alone (node-tap, ava): the first test in file order of that title
    assert.equal(find('digest'), 'tc_111111111112');
    assert.equal(find('lib/sha256.js (AMTP) their own test'), undefined);
    assert.equal(find('lib/md5.js something else'), undefined);
    assert.equal(find(''), undefined);
  });

  it('within one file, reads every name a runner reports as testOfResult does, the longest match first', () => {
    const want: [string, string | undefined][] = [
      ['lib/sha256.js (AMTP) pins current behaviour: create() leaves the observed state', 'tc_222222222221'],
      ['lib/sha256.js (AMTP) nested suite digest', 'tc_222222222222'],
      ['lib/sha256.js (AMTP) their own test', undefined],
      ['pins current behaviour: create() leaves the observed state', 'tc_222222222221'],
      ['digest', 'tc_222222222222'],
      ['their own test', undefined],
      ['x digest', 'tc_222222222222'],
      ['digest digest', 'tc_222222222222'],
      ['nested suite', undefined],
    ];
    const find = caseFinder([sha256], false);
    for (const [n, id] of want) {
      assert.equal(find(n), id, n);
      assert.equal(testOfResult(sha256, n, false)?.caseId, id, n);
    }
  });
});
