# Inputs for AMTP's Python call sequences (amtp_char_seqrun.py runs them): argument values from
# type hints, defaults, parameter names and the literals written in the module, instances of the
# module's classes from a pool, and recording callbacks where a parameter takes a callable. All
# choices go through one random.Random with a fixed seed, in a stable order, so a run is repeatable.
# A step is JSON the TypeScript side renders as Python:
#   {var, fn: [path] | recv: var, method, args: [arg], kwargs: {name: arg}}
#   arg: {lit: tagged} | {ref: var} | {cb: {name, returns}}
import ast, collections.abc, inspect, typing

CALLABLE_NAMES = {'func', 'fn', 'f', 'callback', 'cb', 'pred', 'predicate', 'function', 'handler', 'hook', 'getter', 'default_factory', 'factory', 'mapper', 'transform', 'on_error'}
INT_NAMES = {'n', 'i', 'j', 'k', 'count', 'size', 'maxsize', 'index', 'idx', 'num', 'number', 'length', 'width', 'depth', 'times', 'limit', 'start', 'stop', 'step', 'pos', 'offset', 'level', 'precision', 'digits', 'ttl', 'timeout', 'base', 'x', 'y', 'value'}
STR_NAMES = {'s', 'text', 'string', 'name', 'word', 'pattern', 'fmt', 'format', 'prefix', 'suffix', 'sep', 'separator', 'char', 'path', 'label', 'title', 'version', 'spec', 'message', 'msg', 'line', 'template', 'encoding'}
LIST_NAMES = {'items', 'values', 'iterable', 'seq', 'sequence', 'lst', 'data', 'elements', 'iterables', 'args', 'keys', 'words', 'parts'}
DICT_NAMES = {'mapping', 'd', 'dct', 'dictionary', 'kwargs', 'options', 'opts', 'params', 'attrs', 'headers', 'extra_types'}

GENERIC = {
    'int': [0, 1, 2, 3, -1, 10, 100],
    'float': [0.5, 1.5, -2.25, 0.0, 3.0],
    'str': ['a', 'abc', 'Hello World', '', 'x-y_z', '1.2.3'],
    'bytes': [b'abc', b''],
    'bool': [True, False],
    'list': [[1, 2, 3], [3, 1, 2], ['b', 'a', 'c'], [], [1, 'a'], [2, 1, 2, 3, 1], [0, -1, 10]],
    'dict': [{'a': 1, 'b': 2}, {}, {'x': 'y'}],
    'tuple': [(1, 2), ('a', 'b'), ()],
}


def literal_pools(source):
    """Constants written in the module, per enclosing def/class name (and '' for all), by type."""
    pools = {}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return pools

    def visit(node, scopes):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scopes = scopes + [node.name]
        if isinstance(node, ast.Constant) and not isinstance(node.value, type(Ellipsis)):
            v = node.value
            kind = type(v).__name__
            if kind in ('int', 'float', 'str', 'bytes') and not (isinstance(v, str) and (len(v) > 40 or '\n' in v)):
                # an int's neighbours too: `if n > 100` is decided by 100 and 101
                near = [v, v + 1, v - 1] if kind == 'int' and not isinstance(v, bool) else [v]
                for s in [''] + scopes:
                    bucket = pools.setdefault(s, {}).setdefault(kind, [])
                    for x in near:
                        if x not in bucket and len(bucket) < 24:
                            bucket.append(x)
        for child in ast.iter_child_nodes(node):
            visit(child, scopes)

    visit(tree, [])
    return pools


def hint_of(param, hints):
    h = hints.get(param.name, param.annotation)
    return None if h is inspect.Parameter.empty else h


def kinds_of_hint(h, classes):
    """The kinds of value a hint allows ('int', 'list', 'callable', a class...), most specific first."""
    if h is None:
        return []
    if isinstance(h, str):
        for name, cls in classes.items():
            if h.strip('\'"') == name:
                return [cls]
        low = h.lower()
        return [k for k in ('callable', 'int', 'float', 'str', 'bytes', 'bool', 'list', 'dict', 'tuple') if k in low]
    if h in (int, float, str, bytes, bool, list, dict, tuple):
        return [h.__name__]
    if isinstance(h, type) and h in classes.values():
        return [h]
    origin = typing.get_origin(h)
    if origin is typing.Union:
        return [k for a in typing.get_args(h) if a is not type(None) for k in kinds_of_hint(a, classes)]
    if origin is collections.abc.Callable or h is collections.abc.Callable or h is typing.Callable:
        return ['callable']
    if origin in (list, collections.abc.Sequence, collections.abc.Iterable, collections.abc.MutableSequence, set, frozenset, collections.abc.Collection):
        return ['list']
    if origin in (dict, collections.abc.Mapping, collections.abc.MutableMapping):
        return ['dict']
    if origin is tuple:
        return ['tuple']
    return []


def tag(v):
    """A literal as the tagged JSON of server/src/characterize/values.ts (the harness decodes it)."""
    if isinstance(v, float):
        if v != v:
            return {'$': 'num', 'v': 'NaN'}
        if v in (float('inf'), float('-inf')):
            return {'$': 'num', 'v': 'Infinity' if v > 0 else '-Infinity'}
        # 2.0 would cross JSON as the int 2 (`0 / 0` raises another message than `0.0 / 0.0`)
        return {'$': 'num', 'v': repr(v)} if v == int(v) else v
    if isinstance(v, bytes):
        return {'$': 'bytes', 'v': v.hex()}
    if isinstance(v, tuple):
        return {'$': 'tuple', 'v': [tag(x) for x in v]}
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, dict):
        return {'$': 'obj', 'v': {str(k): tag(x) for k, x in v.items()}}
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2 ** 53:
        return {'$': 'big', 'v': str(v)}
    return v


class Values:
    """Argument values for one module: generic ones, the module's literals, instances, callbacks."""

    def __init__(self, rng, pools, classes):
        self.rng, self.pools, self.classes = rng, pools, classes
        self.callbacks = 0
        # values used earlier in the sequence, by kind: a mapping's key set by one step is read by the next
        self.used = {}
        # constructor arguments that built an instance without an error, by class name: reused, so
        # the search spends its tries on the methods once it knows how to make the object
        self.good_inits = {}

    def fresh_sequence(self):
        self.used = {}

    def pool(self, kind, scopes):
        own = []
        for s in scopes:
            own += self.pools.get(s, {}).get(kind, [])
        return own, GENERIC.get(kind, [])

    def pick_kind(self, kind, scopes, objects):
        if kind == 'callable':
            self.callbacks += 1
            return {'cb': {'name': 'cb%d' % self.callbacks, 'returns': 'first'}}
        if isinstance(kind, type):
            refs = [v for v, cls in objects if isinstance(cls, type) and issubclass(cls, kind)]
            return {'ref': self.rng.choice(refs)} if refs else None
        earlier = self.used.get(kind, [])
        if earlier and self.rng.random() < 0.5:
            return self.rng.choice(earlier)
        v = self.pick_literal(kind, scopes)
        if v is not None:
            self.used.setdefault(kind, []).append(v)
        return v

    def pick_literal(self, kind, scopes):
        own, generic = self.pool(kind, scopes)
        if kind == 'list' and self.pools.get('', {}).get('str') and self.rng.random() < 0.3:
            strs = self.pools['']['str'][:6]
            return {'lit': tag(list(self.rng.sample(strs, min(len(strs), 3))))}
        choices = own if own and self.rng.random() < 0.6 else generic
        return {'lit': tag(self.rng.choice(choices))} if choices else None

    def for_param(self, param, hints, scopes, objects):
        """A value for one parameter: its hint, else its default's type, else its name, else anything."""
        kinds = kinds_of_hint(hint_of(param, hints), self.classes)
        default = param.default
        if not kinds and default is not inspect.Parameter.empty and default is not None:
            kinds = [type(default).__name__] if type(default).__name__ in GENERIC else []
            if callable(default):
                kinds = ['callable']
        name = param.name.lower()
        if not kinds:
            named = [c for n, c in self.classes.items() if n.lower() == name]
            if named and any(isinstance(cls, type) and issubclass(cls, named[0]) for _v, cls in objects):
                kinds = named
        if not kinds:
            if name in CALLABLE_NAMES or name in ('key', 'getsizeof', 'timer') and default is None or name.endswith(('_func', '_fn', '_factory', '_callback')):
                kinds = ['callable']
            elif name in INT_NAMES:
                kinds = ['int']
            elif name in STR_NAMES or name.endswith(('name', 'text', '_str', 'string', 'spec', 'version', 'path', 'pattern')):
                kinds = ['str']
            elif name in LIST_NAMES or name.endswith('s') and len(name) > 3:
                kinds = ['list']
            elif name in DICT_NAMES:
                kinds = ['dict']
        if not kinds:
            kinds = ['int', 'str', 'list', 'float', 'bool', 'dict'] + [c for c in self.classes.values()]
        if self.rng.random() < 0.04:
            return {'lit': None}  # None is one source among many, never the default
        for kind in [self.rng.choice(kinds)] + kinds:
            v = self.pick_kind(kind, scopes, objects)
            if v is not None:
                return v
        return {'lit': tag(self.rng.choice(GENERIC['int'] + GENERIC['str']))}


def class_params(funcs, classes):
    """The module's classes that parameters of these callables take, by hint or by name (`version` → Version)."""
    found = []
    by_name = {n.lower(): c for n, c in classes.items()}
    for fn in funcs:
        sig, hints = signature_of(fn)
        for p in (sig.parameters.values() if sig else []):
            kinds = [k for k in kinds_of_hint(hint_of(p, hints), classes) if isinstance(k, type)]
            if not kinds and p.name.lower() in by_name and hint_of(p, hints) is None:
                kinds = [by_name[p.name.lower()]]
            for k in kinds:
                if k not in found:
                    found.append(k)
    return found


def signature_of(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None, {}
    try:
        hints = typing.get_type_hints(obj)
    except Exception:  # noqa: BLE001 -- a hint that does not resolve stays a string or is ignored
        hints = {}
    return sig, hints


def arguments(values, obj, scopes, objects, optional_share=0.3):
    """Positional values for the required parameters; some optional ones by keyword."""
    sig, hints = signature_of(obj)
    if sig is None:
        return None
    args, kwargs = [], {}
    for p in sig.parameters.values():
        if p.name in ('self', 'cls') or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        required = p.default is inspect.Parameter.empty
        if not required and (values.rng.random() > optional_share or inspect.isroutine(p.default) or inspect.isclass(p.default)):
            continue  # a default that is a function or class is plumbing (cache_getitem=Cache.__getitem__), not input
        v = values.for_param(p, hints, scopes, objects)
        if p.kind == p.KEYWORD_ONLY or (not required and p.kind != p.POSITIONAL_ONLY):
            kwargs[p.name] = v
        else:
            args.append(v)
    return args, kwargs
