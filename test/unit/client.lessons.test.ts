// The Lessons view's data: each row's text, scope, source and date, which rows offer Forget, the
// tree over one or several folders, and when a run's end calls for reading the lessons again.
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { canForget, lessonNodes, lessonRow, lessonScope, RunEndWatch, type FolderLessons } from '../../client/src/model/lessonsTree';

const rejected: P.LessonView = {
  id: 'tc_0c366574e7be',
  source: 'rejected',
  file: 'src/duration.js',
  symbol: 'parseDuration',
  text: 'The person rejected the test "parses 30s"; the person\'s reason: duplicates mine. It is not written again.',
  at: '2026-03-04T10:20:30.000Z',
};
const repair: P.LessonView = { id: 'tc_aaaaaaaaaaaa', source: 'repair_failed', text: 'A repair gave up.', at: '2026-03-05T08:00:00.000Z' };

describe('client: the Lessons view', () => {
  it("a row shows the lesson's text, then its module and symbol, its source and its day", () => {
    const row = lessonRow(rejected);
    assert.equal(row.label, rejected.text);
    assert.equal(row.description, 'src/duration.js › parseDuration · you rejected the test · 2026-03-04');
    assert.match(row.tooltip, /About: src\/duration\.js › parseDuration/);
    assert.match(row.tooltip, /Source: you rejected the test \(tc_0c366574e7be\)/);
    assert.match(row.tooltip, /Date: 2026-03-04T10:20:30\.000Z/);
    assert.equal(row.icon, 'thumbsdown');
  });

  it('a lesson tied to no module is about the project; one with a file and no symbol, about the file', () => {
    assert.equal(lessonScope(repair), 'project');
    assert.equal(lessonScope({ ...repair, file: 'src/a.js' }), 'src/a.js');
    assert.match(lessonRow(repair).description, /^project · a repair gave up · 2026-03-05$/);
  });

  it("only a person's decision offers Forget: a failed repair's lesson ages out with its run", () => {
    assert.equal(canForget(rejected), true);
    assert.equal(lessonRow(rejected).contextValue, 'amtp.lesson.forgettable');
    assert.equal(canForget(repair), false);
    assert.equal(lessonRow(repair).contextValue, 'amtp.lesson');
    for (const source of ['deleted', 'wrong_test', 'real_bug', 'docs_wrong'] as const)
      assert.equal(canForget({ ...rejected, source }), true);
  });

  it("one folder: its lessons are the roots, each stamped with the folder's key; none leaves the welcome text", () => {
    const one: FolderLessons = { key: 'file:///ws', name: 'ws', lessons: [rejected, repair] };
    assert.deepEqual(lessonNodes([one]), [
      { kind: 'lesson', lesson: rejected, folder: 'file:///ws' },
      { kind: 'lesson', lesson: repair, folder: 'file:///ws' },
    ]);
    assert.deepEqual(lessonNodes([{ ...one, lessons: [] }]), []);
    assert.deepEqual(lessonNodes([]), []);
  });

  it('several folders: a node per folder, each with its lessons, "no lessons yet", or why they could not be read', () => {
    const folders: FolderLessons[] = [
      { key: 'file:///a', name: 'a', lessons: [rejected] },
      { key: 'file:///b', name: 'b', lessons: [] },
      { key: 'file:///c', name: 'c', lessons: { error: 'the server stopped' } },
    ];
    const roots = lessonNodes(folders);
    assert.deepEqual(
      roots.map((n) => n.kind === 'folder' && n.name),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(lessonNodes(folders, roots[0]), [{ kind: 'lesson', lesson: rejected, folder: 'file:///a' }]);
    assert.deepEqual(lessonNodes(folders, roots[1]), [{ kind: 'message', text: 'no lessons yet', folder: 'file:///b' }]);
    assert.deepEqual(lessonNodes(folders, roots[2]), [
      { kind: 'message', text: 'could not read the lessons: the server stopped', folder: 'file:///c' },
    ]);
    assert.deepEqual(lessonNodes(folders, { kind: 'lesson', lesson: rejected, folder: 'file:///a' }), []);
  });

  it('a run that was running and now is not has ended; runs first seen ended, or still running, have not', () => {
    const watch = new RunEndWatch();
    assert.equal(watch.ended([{ key: 'a\nr_1', status: 'completed' }]), false, 'the runs listed at startup');
    assert.equal(watch.ended([{ key: 'a\nr_2', status: 'running' }]), false);
    assert.equal(watch.ended([{ key: 'a\nr_2', status: 'running' }]), false, 'progress of a running run');
    assert.equal(watch.ended([{ key: 'a\nr_2', status: 'awaiting_approval' }]), true);
    assert.equal(watch.ended([{ key: 'a\nr_2', status: 'awaiting_approval' }]), false, 'told once');
    assert.equal(watch.ended([{ key: 'b\nr_2', status: 'failed' }]), false, "another folder's run of the same id");
  });
});
