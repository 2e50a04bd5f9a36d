# What AMTP's Python call sequences observe (amtp_char_seqrun.py): the last step's value when it
# can be pinned, else the object it returned through its state and observers: public attributes
# (`vars`), properties, `len`, the items of a sized iterable, and `repr` when it shows no address.
# The receiver of the last method call is observed the same way after it (how the call changed it),
# and each recording callback's calls. Also the sequences of a class: construct, then call methods.
import inspect, os, shutil
from collections.abc import Iterator

DUNDERS = {'__getitem__', '__setitem__', '__delitem__', '__len__', '__contains__', '__iter__', '__call__'}
MAX_CHECKS = 6


class Recorder:
    """A callback that records its arguments and returns the first (or None)."""

    def __init__(self, spec):
        self.name, self.calls = spec['name'], []

    def __call__(self, *args, **kwargs):
        self.calls.append(args)
        return args[0] if args else None


def is_iterator(v):
    return isinstance(v, Iterator)


def dunder_call(target, method, args, kwargs):
    if method == '__iter__':
        return iter(target)
    if method == '__len__':
        return len(target)
    if method == '__contains__':
        return args[0] in target
    if method == '__getitem__':
        return target[args[0]]
    if method == '__setitem__':
        target[args[0]] = args[1]
        return None
    if method == '__delitem__':
        del target[args[0]]
        return None
    if method == '__call__':
        return target(*args, **kwargs)
    return getattr(target, method)(*args, **kwargs)


def message(e):
    try:
        return str(e)
    except BaseException:  # noqa: B036 -- a __str__ that fails leaves the type alone to pin
        return ''


def raised_by_package(e, pkgdir):
    """The exception comes from a `raise` in the package's own code, not from a wrong guess deeper down."""
    if type(e).__module__ not in ('builtins',) and not type(e).__module__.startswith(('_', 'collections', 'json')):
        return True
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return False
    f = os.path.realpath(last.tb_frame.f_code.co_filename)
    if not f.startswith(pkgdir):
        return False
    try:
        import linecache

        return linecache.getline(f, last.tb_lineno).strip().startswith('raise')
    except Exception:  # noqa: BLE001
        return False


def pinned(H, value, bound):
    try:
        return True, H['encode'](value, [bound], True)
    except (H['Unpinnable'], RecursionError):
        return False, None


def observers(H, expr, v, bound):
    """(expression, tagged value) pairs that describe an object through its state."""
    out = []
    t = type(v)
    if t.__repr__ is not object.__repr__:
        try:
            r = repr(v)
            if ' at 0x' not in r and len(r) <= 400:
                out.append(('repr(%s)' % expr, r))
        except Exception:  # noqa: BLE001
            pass
    if hasattr(t, '__len__'):
        try:
            out.append(('len(%s)' % expr, len(v)))
            if hasattr(t, '__iter__') and len(v) <= 50 and not isinstance(v, Iterator):
                ok, items = pinned(H, list(v), bound)
                if ok:
                    out.append(('list(%s)' % expr, items))
        except Exception:  # noqa: BLE001
            pass
    for name, prop in sorted(inspect.getmembers(t, lambda o: isinstance(o, property))):
        if name.startswith('_'):
            continue
        try:
            ok, val = pinned(H, getattr(v, name), bound)
        except Exception:  # noqa: BLE001 -- a property that raises here is no observer
            continue
        if ok:
            out.append(('%s.%s' % (expr, name), val))
    for name, val in sorted(getattr(v, '__dict__', {}).items()):
        if name.startswith('_') or isinstance(getattr(t, name, None), property):
            continue
        ok, enc = pinned(H, val, bound)
        if ok:
            out.append(('%s.%s' % (expr, name), enc))
    return out[:MAX_CHECKS]


def observe(H, steps, env, value, bound):
    """The row fields for a sequence that ran to its end: its value or observations, and checks."""
    last = steps[-1]
    ok, enc = pinned(H, value, bound)
    checks = []
    if ok:
        row = {'kind': 'return', 'value': enc}
    else:
        var = last.get('var') or 'result'
        last['var'] = var
        env[var] = value
        seen = observers(H, var, value, bound)
        if not seen:
            return {'kind': 'unpinnable', 'why': 'a value of type %s with no observable state' % type(value).__name__}
        if type(value).__module__ == H['module'].__name__:
            row_returns = type(value).__name__  # a later sequence may call its methods (chaining)
        else:
            row_returns = None
        expr, first = seen[0]
        row = {'kind': 'observe', 'expr': expr, 'value': first if isinstance(first, str) else pinned(H, first, bound)[1]}
        if row_returns:
            row['returns'] = row_returns
        checks = [{'expr': e, 'value': v} for e, v in seen[1:]]
    recv = last.get('recv')
    if recv and recv in env:
        checks += [{'expr': e, 'value': v} for e, v in observers(H, recv, env[recv], bound)]
    row['checks'] = [c for c in checks if pinned(H, c['value'], bound)[0]][:MAX_CHECKS]
    return row


def bind_changed(H, steps, passed, bound, env):
    """A list or dict literal a step changed gets a name of its own (`a1 = [3, 1, 2]`, then `f(a1)`), so its test can check it."""
    changed = []
    for i, key, obj in passed:
        arg = steps[i]['args'][key] if isinstance(key, int) else steps[i]['kwargs'][key]
        if 'lit' not in arg:
            continue
        ok, now = pinned(H, obj, bound)
        if ok and now != arg['lit']:
            changed.append((i, key, arg['lit'], obj))
    if not changed:
        return steps
    out = [dict(s, args=list(s.get('args', [])), kwargs=dict(s.get('kwargs', {}))) if 'lit' not in s else s for s in steps]
    inserted = []
    for n, (i, key, lit, obj) in enumerate(changed):
        name = 'a%d' % (n + 1)
        env[name] = obj
        target = out[i]
        if isinstance(key, int):
            target['args'][key] = {'ref': name}
        else:
            target['kwargs'][key] = {'ref': name}
        inserted.append({'var': name, 'lit': lit, 'args': [], 'kwargs': {}})
    return inserted + out


def argument_checks(H, steps, env, bound):
    """How the sequence changed the arguments bound to names: their value after it."""
    out = []
    for s in steps:
        if 'lit' in s and s.get('var') in env:
            ok, now = pinned(H, env[s['var']], bound)
            if ok and now != s['lit']:
                out.append({'expr': s['var'], 'value': now})
    return out


def callback_checks(H, cbs, bound):
    out = []
    for rec in cbs:
        ok, enc = pinned(H, rec.calls, bound)
        if ok:
            out.append({'expr': '%s_calls' % rec.name, 'value': enc})
    return out


def public_methods(cls):
    names = []
    for name, member in sorted(vars(cls).items()) + [(n, getattr(cls, n, None)) for n in sorted(DUNDERS) if n not in vars(cls)]:
        if name.startswith('_') and name not in DUNDERS:
            continue
        if name in DUNDERS and getattr(cls, name, None) is None:
            continue
        raw = inspect.getattr_static(cls, name, None)
        if isinstance(raw, (property, classmethod, staticmethod)) or not callable(getattr(cls, name, None)):
            continue
        names.append(name)
    return names


def class_sequence(values, cls, target, classes, rng, sid):
    """Construct `cls` (from the module), then one to four method calls on it or on instances they return."""
    gen = __import__('amtp_char_seqgen')
    methods = public_methods(cls)
    steps, objects = [], []
    # instances of the module's classes that the constructor or the methods take (`match(version: Version)`)
    wanted = gen.class_params([cls] + [getattr(cls, m) for m in methods], classes)
    for k, other in enumerate(wanted[:2]):
        made = constructor_args(values, other, {'name': other.__name__}, objects, rng)
        if made is not None:
            steps.append({'var': 'o%d' % (k + 1), 'fn': [other.__name__], 'args': made[0], 'kwargs': made[1]})
            objects.append(('o%d' % (k + 1), other))
    made = constructor_args(values, cls, target, objects, rng)
    if made is None:
        return None
    steps.append({'var': 'obj', 'fn': [target['name']], 'args': made[0], 'kwargs': made[1]})
    objects.append(('obj', cls))
    recv = 'obj'
    if callable(getattr(cls, '__enter__', None)) and callable(getattr(cls, '__exit__', None)) and rng.random() < 0.5:
        # a context manager: the calls happen inside `with obj as ctx:`, and `__exit__` runs after them
        steps.append({'var': 'ctx', 'recv': 'obj', 'method': '__enter__', 'args': [], 'kwargs': {}})
        objects.append(('ctx', cls))
        recv = 'ctx'
    for i in range(rng.randint(0, 4) if methods else 0):
        name = rng.choice(methods)
        got = gen.arguments(values, getattr(cls, name), [target['name'], name], objects)
        if got is None:
            continue
        var = 'r%d' % (i + 1)
        steps.append({'var': var, 'recv': recv, 'method': name, 'args': got[0], 'kwargs': got[1]})
    if steps[-1].get('method') == '__setitem__':
        steps[-1].pop('var', None)
    return {'id': sid, 'target': target['name'], 'steps': steps}


def constructor_args(values, cls, target, objects, rng):
    """Arguments that built the class before (mostly), documented ones (`Version('1.2.3')`), or new ones."""
    good = values.good_inits.get(cls.__name__, [])
    if good and rng.random() < 0.7:
        return rng.choice(good)
    examples = target.get('examples') or []
    if examples and rng.random() < 0.5:
        return [{'lit': a} for a in rng.choice(examples)], {}
    return __import__('amtp_char_seqgen').arguments(values, cls, [cls.__name__], objects)


def remember_constructions(values, row):
    """Records the constructor arguments of the steps that ran without raising."""
    steps = row.get('steps', [])
    ran = len(steps) - (1 if row.get('kind') == 'throw' else 0)
    for step in steps[:ran]:
        if step.get('fn') and step.get('var'):
            good = values.good_inits.setdefault(step['fn'][-1], [])
            made = (step['args'], step['kwargs'])
            if made not in good and len(good) < 12:
                good.append(made)


def touched_sandbox(sandbox):
    try:
        return any(name != 'job.json' for name in os.listdir(sandbox))
    except OSError:
        return False


def clear_sandbox(sandbox):
    for name in os.listdir(sandbox):
        if name == 'job.json':
            continue
        p = os.path.join(sandbox, name)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            try:
                os.remove(p)
            except OSError:
                pass
