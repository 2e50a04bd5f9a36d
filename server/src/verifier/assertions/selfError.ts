// Errors raised by the test's own code, not by the code under test: a name the test uses but never
// bound (ReferenceError, NameError), an import the test got wrong (ImportError, ModuleNotFoundError,
// Cannot find module), or a TypeError "x is not a function" on a binding the test file made itself.
// Such a failure says the test is wrong; it is never a possible bug.

const NAME_ERRORS = [
  /^(?:ReferenceError: )?([\w$.]+) is not defined\b/m,
  /^(?:E\s+)?NameError: name '([\w.]+)' is not defined/m,
  /^(?:E\s+)?UnboundLocalError: /m,
  /^(?:E\s+)?(?:ImportError|ModuleNotFoundError): /m,
  /^(?:Error: )?Cannot find module /m,
  /^\s*Cannot find module /m,
];

/** The first line of the message that names the test's own error, or undefined. */
export function selfError(message: string, testFile: string): string | undefined {
  const m = message.replace(/\u001b\[[0-9;]*m/g, '');
  for (const re of NAME_ERRORS) {
    const hit = re.exec(m);
    if (hit) return (hit[0] + restOfLine(m, hit.index + hit[0].length)).replace(/^\s*E\s+/, '').trim();
  }
  const notFn = /^(?:TypeError: )?([\w$]+)(?:\.[\w$.]+)? is not a (?:function|constructor)/m.exec(m);
  if (notFn && boundInFile(testFile, notFn[1])) return notFn[0].trim();
  return undefined;
}

function restOfLine(m: string, from: number): string {
  const end = m.indexOf('\n', from);
  return m.slice(from, end < 0 ? undefined : end);
}

/** Is `name` declared or imported by the test file (const/let/var, destructuring, import, Python import/def/assignment)? */
function boundInFile(text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return [
    new RegExp(`\\b(?:const|let|var)\\s+${n}\\b`),
    new RegExp(`\\b(?:const|let|var)\\s*\\{[^}]*\\b${n}\\b[^}]*\\}\\s*=`),
    new RegExp(`\\bimport\\s+(?:[\\w$]+\\s*,\\s*)?(?:\\*\\s+as\\s+${n}\\b|${n}\\b|\\{[^}]*\\b${n}\\b[^}]*\\})`),
    new RegExp(`^\\s*(?:from\\s+\\S+\\s+)?import\\s+.*\\b${n}\\b`, 'm'),
    new RegExp(`^\\s*${n}\\s*=`, 'm'),
  ].some((re) => re.test(text));
}
