// The two files jest needs to run TypeScript tests without ts-jest: a config and a transpile-only
// transform, shipped as real files (assets/). The config's one project-specific value, the root
// as seen from the test folder, is its `ROOT` string literal, found in the syntax tree and replaced.
import { posix } from 'node:path';
import { typescript } from '../../util/typescript';
import { asset } from '../assets';
import { jsString } from '../literals';
import type { SupportFile } from '../types';

export const JEST_CONFIG = 'amtp.jest.config.cjs';
const TRANSFORM = 'amtp.jest-ts-transform.cjs';

export function jestSupportFiles(testDir: string): SupportFile[] {
  const root = posix.relative(testDir, '.') || '.';
  return [
    { path: posix.join(testDir, JEST_CONFIG), content: withRoot(asset(JEST_CONFIG), root) },
    { path: posix.join(testDir, TRANSFORM), content: asset(TRANSFORM) },
  ];
}

function withRoot(config: string, root: string): string {
  const ts = typescript();
  const sf = ts.createSourceFile(JEST_CONFIG, config, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const decl = st.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === 'ROOT');
    if (decl?.initializer && ts.isStringLiteral(decl.initializer)) {
      return config.slice(0, decl.initializer.getStart(sf)) + jsString(root) + config.slice(decl.initializer.end);
    }
  }
  throw new Error(`assets/${JEST_CONFIG} has no \`const ROOT = '…'\`: the jest config cannot be written`);
}
