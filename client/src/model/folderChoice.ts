// Which workspace folder a command acts on. No 'vscode' import: unit-tested.

export type FolderChoice<F> = { folder: F } | { ask: F[] } | { none: true };

/**
 * The first hint that names one of the folders (the command's argument, then the active editor's
 * folder), else the only folder; with several folders and no hint the person is asked.
 */
export function chooseFolder<F>(folders: readonly F[], ...hints: (F | undefined)[]): FolderChoice<F> {
  for (const hint of hints) if (hint !== undefined && folders.includes(hint)) return { folder: hint };
  if (folders.length === 1) return { folder: folders[0] };
  return folders.length ? { ask: [...folders] } : { none: true };
}
