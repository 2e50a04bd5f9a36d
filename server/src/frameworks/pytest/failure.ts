// pytest's assertion rewriting: `AssertionError: assert '7  ' == '007'` then an explanation and the
// source with `E` lines. By pytest's convention the call is on the left, the expected value on the right.
import { balanced, type ParsedAssertion } from '../failureText';

export function parsePytest(message: string): ParsedAssertion | undefined {
  const lines = message.split('\n');
  const at = lines.findIndex((l) => /^(E\s+)?(AssertionError: )?assert /.test(l));
  if (at < 0) return undefined;
  const text = lines[at].replace(/^(E\s+)?(AssertionError: )?assert /, '');
  for (let i = text.indexOf(' == '); i >= 0; i = text.indexOf(' == ', i + 1)) {
    const left = text.slice(0, i);
    if (balanced(left)) return { actual: left, expected: text.slice(i + 4) };
  }
  return undefined;
}
