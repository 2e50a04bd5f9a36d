// The Lessons view as plain data: each lesson's row (its text; its scope, source and date beside it),
// the tree over the workspace folders (one folder: its lessons are the roots; more: a node per
// folder), and when to read the lessons again (a run ended). No 'vscode' import: unit-tested.
import type * as P from '../../../server/src/protocol';

/** One folder's lessons as its server answered, or why it could not. */
export interface FolderLessons {
  /** the workspace folder's URI (string), stamped on its nodes so a command reaches its server */
  key: string;
  name: string;
  lessons: P.LessonView[] | { error: string };
}

export type LessonsNode =
  | { kind: 'folder'; folder: string; name: string }
  | { kind: 'lesson'; lesson: P.LessonView; folder: string }
  | { kind: 'message'; text: string; folder: string };

/** What the person sees in a row: plain strings the view turns into a TreeItem. */
export interface LessonRow {
  label: string;
  description: string;
  tooltip: string;
  /** `amtp.lesson.forgettable` shows the inline Forget action */
  contextValue: 'amtp.lesson.forgettable' | 'amtp.lesson';
  /** a codicon id */
  icon: string;
}

const SOURCE: Record<P.LessonView['source'], { label: string; icon: string }> = {
  rejected: { label: 'you rejected the test', icon: 'thumbsdown' },
  deleted: { label: 'you deleted the test', icon: 'trash' },
  wrong_test: { label: 'you said the test is wrong', icon: 'error' },
  real_bug: { label: 'you said it is a real bug', icon: 'bug' },
  docs_wrong: { label: 'you said the docs are wrong', icon: 'book' },
  repair_failed: { label: 'a repair gave up', icon: 'tools' },
  edited: { label: 'you changed the test by hand', icon: 'edit' },
};

/** The module and symbol a lesson is about, or the whole project. */
export function lessonScope(l: P.LessonView): string {
  if (!l.file) return 'project';
  return l.symbol ? `${l.file} › ${l.symbol}` : l.file;
}

/** Only a person's decision can be forgotten; a failed repair's lesson ages out with its run (app/lessons.ts). */
export function canForget(l: P.LessonView): boolean {
  return l.source !== 'repair_failed';
}

export function lessonRow(l: P.LessonView): LessonRow {
  const source = SOURCE[l.source];
  const day = l.at.slice(0, 10);
  return {
    label: l.text,
    description: `${lessonScope(l)} · ${source.label} · ${day}`,
    tooltip: [l.text, `About: ${lessonScope(l)}`, `Source: ${source.label} (${l.id})`, `Date: ${l.at}`].join('\n'),
    contextValue: canForget(l) ? 'amtp.lesson.forgettable' : 'amtp.lesson',
    icon: source.icon,
  };
}

/**
 * The children of `parent` (the roots without one). A folder with no lessons says so in a row when
 * folders are grouped; a single folder with none has no roots, so the view's welcome text shows.
 */
export function lessonNodes(folders: FolderLessons[], parent?: LessonsNode): LessonsNode[] {
  if (!parent) {
    if (folders.length > 1) return folders.map((f) => ({ kind: 'folder', folder: f.key, name: f.name }));
    return folders[0] ? folderChildren(folders[0], false) : [];
  }
  const folder = parent.kind === 'folder' ? folders.find((f) => f.key === parent.folder) : undefined;
  return folder ? folderChildren(folder, true) : [];
}

function folderChildren(f: FolderLessons, grouped: boolean): LessonsNode[] {
  if ('error' in f.lessons) return [{ kind: 'message', text: `could not read the lessons: ${f.lessons.error}`, folder: f.key }];
  if (!f.lessons.length) return grouped ? [{ kind: 'message', text: 'no lessons yet', folder: f.key }] : [];
  return f.lessons.map((lesson) => ({ kind: 'lesson', lesson, folder: f.key }));
}

/**
 * Tells when a run has ended since the last look: a run seen `running` that is now in any other
 * status. Runs first seen already ended (the list at startup) do not count: nothing new was learnt.
 */
export class RunEndWatch {
  private readonly last = new Map<string, P.RunStatus>();

  /** `runs`: every folder's runs now, keyed so two folders' run ids never meet. */
  ended(runs: Iterable<{ key: string; status: P.RunStatus }>): boolean {
    let ended = false;
    for (const { key, status } of runs) {
      if (this.last.get(key) === 'running' && status !== 'running') ended = true;
      this.last.set(key, status);
    }
    return ended;
  }
}
