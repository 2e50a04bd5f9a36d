// What the JavaScript renderers share: module syntax and file extension choices.
import type { Project } from './types';

export function isTypeScript(project: Project): boolean {
  return project.typescript || project.language === 'typescript';
}

/** ESM syntax when the project is ESM or TypeScript (TS compiles imports for either target). */
export function usesEsm(project: Project): boolean {
  return project.module_system === 'esm' || isTypeScript(project);
}

/** `.ts` for TypeScript; `.mjs` for ESM JavaScript (correct whatever package.json "type" says); `.js` for CommonJS. */
export function defaultExtension(project: Project): string {
  if (isTypeScript(project)) return '.ts';
  return project.module_system === 'esm' ? '.mjs' : '.js';
}

export function declared(project: Project, id: string): boolean {
  return project.test_setup.framework === id || (project.test_setup.others ?? []).includes(id);
}

/** A runner's JavaScript and TypeScript config file names (`jest.config.js` … `jest.config.cts`). */
export function jsConfigNames(base: string): string[] {
  return ['js', 'cjs', 'mjs', 'ts', 'mts', 'cts'].map((e) => `${base}.${e}`);
}
