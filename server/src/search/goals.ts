// The goals a run reached: statements and branches (probes.ts, from the child's coverage segments of
// the text V8 ran), a clean return of each callable (`returns:<symbol>`), and the library's own
// errors, one per callable and distinct error (`error:<symbol>:<name>:<message shape>`). The selection
// (select.ts) counts goals without knowing their kind, so another kind plugs in beside these: the
// mutation engine's killed mutants (`mutant:<id>`, mutants.ts).
import type { JsParser } from '../util/jsParser';
import { fileProbes, functionAt, offsetOf, reached, type FileProbes } from './probes';
import { regexesIn, type RegexSource } from './regexSamples';
import type { CoverSegments, ErrorInfo, Place } from './types';

export class GoalMap {
  private readonly files = new Map<string, { text: string; probes: FileProbes }>();

  constructor(private readonly parser: JsParser) {}

  /** Texts the child sent (a file's first appearance in that child); the first text of a file wins. */
  learn(texts: Record<string, string>): void {
    for (const [file, text] of Object.entries(texts)) {
      if (this.files.has(file)) continue;
      let probes: FileProbes;
      try {
        probes = fileProbes(this.parser, file, text);
      } catch {
        continue;
      }
      this.files.set(file, { text, probes });
    }
  }

  /** Statement and branch goals of one run, in file order. */
  blockGoals(cover: CoverSegments): string[] {
    const out: string[] = [];
    for (const file of Object.keys(cover).sort()) {
      const f = this.files.get(file);
      if (f) out.push(...reached(file, f.probes, cover[file]));
    }
    return out;
  }

  /** The probes inside the function defined at a place (its goal ids), for weighting targets by what is left. */
  goalsIn(at: Place | undefined): string[] {
    if (!at) return [];
    const f = this.files.get(at.file);
    if (!f) return [];
    const fn = functionAt(f.probes, offsetOf(f.text, at.line, at.column));
    if (!fn) return [];
    return f.probes.probes.filter((p) => p.at >= fn.start && p.at < fn.end).map((p) => `${at.file}:${p.kind}@${p.at}`);
  }

  /** The function node at a place, for reading its hints. */
  functionAt(at: Place | undefined) {
    if (!at) return undefined;
    const f = this.files.get(at.file);
    return f ? functionAt(f.probes, offsetOf(f.text, at.line, at.column)) : undefined;
  }

  programOf(file: string) {
    return this.files.get(file)?.probes.program;
  }

  /** A file's regular expressions bound to names (`const TYPE_REGEXP = /…/`), by name. */
  regexesOf(file: string): Map<string, RegexSource> {
    const program = this.programOf(file);
    const out = new Map<string, RegexSource>();
    if (program) for (const re of regexesIn(program)) if (re.name) out.set(re.name, re);
    return out;
  }

  get knownFiles(): string[] {
    return [...this.files.keys()].sort();
  }

  /** Every statement and branch goal of the files seen, for the summary's "reached N of M". */
  get total(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.probes.probes.length;
    return n;
  }
}

/**
 * What of a message the code says rather than the input: up to the first quote, digit, bracket, brace
 * or `=` (where a value is usually spliced in: `val=${JSON.stringify(val)}`), so one check gives one goal.
 */
export function messageShape(message: string): string {
  const at = message.search(/["'`\d[{(=]/);
  return (at < 0 ? message : `${message.slice(0, at)}…`).slice(0, 80);
}

/** A goal for an error the library throws itself (never one the engine or node raises on a bad value). */
export function errorGoal(callable: string, e: ErrorInfo): string | undefined {
  if (e.engine || !e.own || e.message.startsWith('AMTP sandbox:')) return undefined;
  return `error:${callable}:${e.name}:${messageShape(e.message)}`;
}
