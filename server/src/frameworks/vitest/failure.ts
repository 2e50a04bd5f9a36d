// vitest (chai's assertion messages), also mocha with chai:
//   AssertionError: expected '7  ' to be '007' // Object.is equality
//   AssertionError: expected { a: 1, b: 'two\nlines' } to deeply equal { a: 1, b: 'two\nline' }
import { balanced, stripNoise, type ParsedAssertion } from '../failureText';

const VERB = / to (?:be|equal|deeply equal|strictly equal|eql|deep equal|have length of) /;

export function parseVitest(message: string): ParsedAssertion | undefined {
  const m = stripNoise(message)
    .replace(/^AssertionError: /, '')
    .replace(/ \/\/ [^\n]*$/, '')
    .trim();
  if (!m.startsWith('expected ')) return undefined;
  const text = m.slice('expected '.length);
  // The verb splits the two values; a value can contain the verb's words only inside a string, so take the split outside quotes.
  for (let at = text.search(VERB); at >= 0;) {
    const head = text.slice(0, at);
    if (balanced(head)) {
      const verb = VERB.exec(text.slice(at))![0];
      return { actual: head, expected: text.slice(at + verb.length) };
    }
    const next = text.slice(at + 1).search(VERB);
    at = next < 0 ? -1 : at + 1 + next;
  }
  return undefined;
}
