// The one place the characterize stage picks an engine by module language. JavaScript runs in the
// Node sandbox (characterize.ts). TypeScript sources would need a loader in the child, and the Python
// engine (a CPython child, in a python folder beside this file) plugs in here with the same signature.
import { characterizeModule } from './characterize';

export type Characterizer = typeof characterizeModule;

export function characterizerFor(language: 'javascript' | 'typescript' | 'python'): Characterizer | undefined {
  return language === 'javascript' ? characterizeModule : undefined;
}
