// What part of the workspace a run is about: the whole of it, or some files and symbols
// (`--only PATH[#SYMBOL]`, `--changed-since REF`, "Generate Tests for This File" in VS Code).
// Resolved once when the run starts, so a resume or a replay plans exactly the same work.

export interface ScopedFile {
  /** workspace-relative, forward slashes */
  path: string;
  /** only these symbols (names as the crawler gives them; `Class` also covers `Class.method`) */
  symbols?: string[];
  /** only the symbols whose code overlaps these line ranges (1-based, inclusive) */
  lines?: [number, number][];
}

export interface RunScope {
  /** what the person asked for, as given */
  only?: string[];
  changedSince?: string;
  /** the files the run is about (no entry: nothing in scope) */
  files: ScopedFile[];
}
