// Extension → language name. Used by repo.tree entries and the crawler's language stats.
const BY_EXT: Record<string, string> = {
  '.js': 'JavaScript',
  '.cjs': 'JavaScript',
  '.mjs': 'JavaScript',
  '.jsx': 'JavaScript',
  '.ts': 'TypeScript',
  '.cts': 'TypeScript',
  '.mts': 'TypeScript',
  '.tsx': 'TypeScript',
  '.py': 'Python',
  '.pyi': 'Python',
  '.json': 'JSON',
  '.md': 'Markdown',
  '.markdown': 'Markdown',
  '.rst': 'reStructuredText',
  '.yml': 'YAML',
  '.yaml': 'YAML',
  '.toml': 'TOML',
  '.ini': 'INI',
  '.cfg': 'INI',
  '.html': 'HTML',
  '.htm': 'HTML',
  '.css': 'CSS',
  '.scss': 'SCSS',
  '.less': 'Less',
  '.vue': 'Vue',
  '.svelte': 'Svelte',
  '.c': 'C',
  '.h': 'C',
  '.cc': 'C++',
  '.cpp': 'C++',
  '.cxx': 'C++',
  '.hpp': 'C++',
  '.hh': 'C++',
  '.rs': 'Rust',
  '.go': 'Go',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.scala': 'Scala',
  '.rb': 'Ruby',
  '.php': 'PHP',
  '.cs': 'C#',
  '.swift': 'Swift',
  '.m': 'Objective-C',
  '.sh': 'Shell',
  '.bash': 'Shell',
  '.zsh': 'Shell',
  '.ps1': 'PowerShell',
  '.pl': 'Perl',
  '.pm': 'Perl',
  '.lua': 'Lua',
  '.r': 'R',
  '.S': 'Assembly',
  '.s': 'Assembly',
  '.sql': 'SQL',
  '.xml': 'XML',
  '.svg': 'SVG',
  '.txt': 'Text',
  '.rst.txt': 'Text',
  '.awk': 'Awk',
  '.dts': 'Device Tree',
  '.dtsi': 'Device Tree',
  '.y': 'Yacc',
  '.l': 'Lex',
};

const BY_NAME: Record<string, string> = {
  Makefile: 'Makefile',
  makefile: 'Makefile',
  GNUmakefile: 'Makefile',
  Kbuild: 'Makefile',
  Dockerfile: 'Dockerfile',
  Kconfig: 'Kconfig',
  'CMakeLists.txt': 'CMake',
};

// Maps, not plain objects: a file named `constructor` must not find Object.prototype's.
const EXT_MAP = new Map(Object.entries(BY_EXT));
const NAME_MAP = new Map(Object.entries(BY_NAME));

/** Language of a file by name, or undefined when unknown. */
export function languageOf(fileName: string): string | undefined {
  const byName = NAME_MAP.get(fileName);
  if (byName) return byName;
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const ext = fileName.slice(dot);
  return EXT_MAP.get(ext) ?? EXT_MAP.get(ext.toLowerCase());
}

/** Languages whose files count as source for ranking and symbol extraction. */
export const CODE_LANGUAGES = new Set(['JavaScript', 'TypeScript', 'Python']);
