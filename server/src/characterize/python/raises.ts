// How a pinned Python exception is asserted: `with pytest.raises(Cls) as excinfo:` around the call,
// then its message. The module's own classes are reached through the module (`mod.TooBig`); a
// class of another module is matched by its qualified name beside the message.
import { pyString } from '../../frameworks/literals';

export const PY_MODULE_LOCAL = 'mod';

/** The `with pytest.raises(...)` block and what is compared after it, for an error the call raised. */
export function raisesOracle(
  errorName: string,
  message: string,
  call: string,
  module: string,
): { setup: string; call: string; expected: string } {
  const own = errorName.startsWith(`${module}.`) ? `${PY_MODULE_LOCAL}.${errorName.slice(module.length + 1)}` : undefined;
  const builtin = /^[A-Za-z_]\w*$/.test(errorName) ? errorName : undefined;
  const cls = builtin ?? own;
  // the raising code may be a block of its own (a `with` statement of a context manager)
  const body = call
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  if (cls) return { setup: `with pytest.raises(${cls}) as excinfo:\n${body}`, call: 'str(excinfo.value)', expected: pyString(message) };
  return {
    setup: `with pytest.raises(BaseException) as excinfo:\n${body}`,
    call: "(type(excinfo.value).__module__ + '.' + type(excinfo.value).__qualname__, str(excinfo.value))",
    expected: `(${pyString(errorName)}, ${pyString(message)})`,
  };
}
