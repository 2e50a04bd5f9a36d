# Feedback-directed call sequences for one Python module, in the characterization child
# (amtp.char-harness.py hands over its namespace H: the tracer, the value encoder, the network
# guard). Pynguin-style: build a sequence (construct an instance of a module class, call methods
# on it, pass instances built by earlier steps; or call a module function), run it traced, keep it
# when it reaches a line or an arc no kept sequence reached, or raises an exception the function
# did not raise before (one per class of exception, the package's own `raise` preferred: a
# built-in TypeError/AttributeError/IndexError from a wrong guess is never kept). A fixed seed and
# a fixed number of tries per target keep it repeatable: the search is bounded by that count, never by
# the clock. A wall-clock safety stop (clockMs) ends it on a machine far slower than the reference, and
# says so in its last row (`cut`), since what it kept then depends on the machine's speed.
# Mode "search" prints one row per kept sequence; mode "replay" runs given sequences again and
# prints what each did, for the two-run stability check on the TypeScript side.
import inspect, itertools, os, random, re, signal, sys, time
import amtp_char_seqgen as gen
import amtp_char_observe as obs
import amtp_char_seqmut as seqmut

WRONG_GUESS = ('TypeError', 'AttributeError', 'IndexError')
# items of an endless iterator pinned
FIRST = 10
# sequences that ran cleanly without reaching anything new, kept for the mutation phase, at most
EXTRAS = 300


class Overrun(BaseException):
    pass


TERMINAL = re.compile(r'^/dev/(?:stdin|tty\w*|pts/|console$)|^/proc/(?:self|thread-self|\d+)/fd/')


class NoStdin:
    """sys.stdin while sequences run: any use is refused and makes the sequence unpinnable."""

    def __init__(self, runner):
        self._runner = runner

    def __getattr__(self, name):
        self._runner.outside.append('standard input (sys.stdin.%s)' % name)
        raise PermissionError('AMTP sandbox: reading standard input is refused')

    def __iter__(self):
        return self.__getattr__('__iter__')


class WatchedArgv(list):
    """sys.argv while sequences run: reading it makes the sequence unpinnable (its test would read pytest's)."""

    def __init__(self, runner, items):
        super().__init__(items)
        self._runner = runner

    def _read(self):
        self._runner.outside.append('the command line (sys.argv)')

    def __getitem__(self, i):
        self._read()
        return super().__getitem__(i)

    def __iter__(self):
        self._read()
        return super().__iter__()

    def __len__(self):
        self._read()
        return super().__len__()

    def __contains__(self, x):
        self._read()
        return super().__contains__(x)

    def __reversed__(self):
        self._read()
        return super().__reversed__()

    def __add__(self, other):
        self._read()
        return list(super().__iter__()) + other

    def __eq__(self, other):
        self._read()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self):
        self._read()
        return super().__repr__()

    def copy(self):
        self._read()
        return list(super().__iter__())

    def index(self, *a):
        self._read()
        return super().index(*a)

    def count(self, x):
        self._read()
        return super().count(x)
    # Not seen: C code that takes a list's items directly (`' '.join(sys.argv)`, `json.dumps(sys.argv)`);
    # their common forms go through a slice or an index first, which is seen.


def on_alarm(_sig, _frame):
    raise Overrun()


class Runner:
    def __init__(self, H, job):
        self.H, self.job, self.module = H, job, H['module']
        self.bound = job['bound']
        self.step_s = max(0.2, job['callTimeoutMs'] / 1000.0)
        self.sandbox = os.path.realpath(os.getcwd())
        self.outside = []
        # standard input is the test process's (a terminal, or a pipe nobody closes): reading it waits
        sys.stdin = NoStdin(self)
        # the command line is the test runner's (pytest's arguments): a call that reads it is not pinned
        sys.argv = WatchedArgv(self, sys.argv)
        signal.signal(signal.SIGALRM, on_alarm)
        if hasattr(sys, 'addaudithook'):
            sys.addaudithook(self.audit)

    def audit(self, event, args):
        # A write, removal or rename outside the sandbox folder (cwd, HOME, TMPDIR) is refused and
        # makes the sequence unpinnable: its test would change the machine it runs on. So is opening a
        # descriptor by number (`open(0)`) or a terminal: its test would read whatever its runner has there.
        if event == 'open' and args and (isinstance(args[0], int) or TERMINAL.match(os.fsdecode(args[0]) if isinstance(args[0], (str, bytes)) else '')):
            self.outside.append('descriptor or terminal %s' % (args[0],))
            raise PermissionError('AMTP sandbox: reading standard input, a terminal or a descriptor it did not open is refused: %s' % (args[0],))
        if event == 'open' and len(args) >= 2 and isinstance(args[1], str) and any(c in args[1] for c in 'wax+'):
            self.check_path(args[0])
        elif event in ('os.remove', 'os.rename', 'os.mkdir', 'os.rmdir', 'shutil.rmtree', 'os.replace', 'os.truncate', 'os.chmod'):
            self.check_path(args[0] if args else None)

    def check_path(self, path):
        if not isinstance(path, (str, bytes, os.PathLike)):
            return
        p = os.path.realpath(os.fsdecode(path))
        if not (p == self.sandbox or p.startswith(self.sandbox + os.sep) or p == os.devnull):
            self.outside.append(p)
            # refused, not only noted: characterizing never changes the project or the machine
            raise PermissionError('AMTP sandbox: writing outside the sandbox folder is refused: %s' % p)

    def resolve(self, arg, env, cbs):
        if 'ref' in arg:
            return env[arg['ref']]
        if 'cb' in arg:
            rec = obs.Recorder(arg['cb'])
            cbs.append(rec)
            return rec
        return self.H['decode'](arg['lit'])

    def call_of(self, step, env, cbs, i):
        if 'lit' in step:
            return self.H['decode'](step['lit'])  # `a1 = [3, 1, 2]`: an argument bound to a name
        args = [self.resolve(a, env, cbs) for a in step.get('args', [])]
        kwargs = {k: self.resolve(a, env, cbs) for k, a in step.get('kwargs', {}).items()}
        for key, v in list(enumerate(args)) + list(kwargs.items()):
            if isinstance(v, (list, dict)):
                self.passed.append((i, key, v))
        if 'recv' in step:
            target = env[step['recv']]
            return obs.dunder_call(target, step['method'], args, kwargs)
        target = self.module
        for name in step['fn']:
            target = getattr(target, name)
        return target(*args, **kwargs)

    def execute(self, steps):
        """Runs the steps traced; returns (env, callbacks, value of the last step or the exception, failed step index)."""
        H = self.H
        env, cbs = {}, []
        H['lines'].clear()
        H['arcs'].clear()
        del H['blocked'][:]
        del self.outside[:]
        self.passed = []
        self.took = None
        state = random.getstate()
        outcome, failed = None, None
        H['draining'] = False
        signal.setitimer(signal.ITIMER_REAL, self.step_s * len(steps))
        sys.settrace(H['tracer'])
        try:
            for i, step in enumerate(steps):
                try:
                    value = self.take(self.call_of(step, env, cbs, i), i == len(steps) - 1)
                except (Overrun, KeyboardInterrupt, MemoryError, H['Unpinnable']):
                    raise  # not the code's behaviour: the harness's limits (time, memory, a value too long to take)
                except BaseException as e:  # noqa: B036 -- what a step raised is its behaviour
                    outcome, failed = e, i
                    break
                if step.get('var'):
                    env[step['var']] = value
                outcome = value
            if not self.leave(steps, env, outcome if failed is not None else None):
                raise H['Unpinnable']('the context manager suppressed the exception')
        finally:
            sys.settrace(None)
            signal.setitimer(signal.ITIMER_REAL, 0)
        drew = random.getstate() != state
        return env, cbs, outcome, failed, drew

    def take(self, value, last):
        """The items an iterator yields, taken while traced (a generator's body runs only now); of an
        endless one, the last step's first ten (`[x for _, x in zip(range(10), gen)]` in its test)."""
        if not obs.is_iterator(value):
            return value
        self.H['draining'] = True
        items = list(itertools.islice(value, self.bound + 1))
        self.H['draining'] = False
        if len(items) > self.bound:
            if not last:
                raise self.H['Unpinnable']('an iterator of more than %d items' % self.bound)
            items, self.took = items[:FIRST], FIRST
        return self.H['Drained'](items)

    def leave(self, steps, env, error):
        """Leaves the `with` block a sequence entered (`__exit__`), as the written test's `with` does; False when it swallowed the error."""
        entered = [s for s in steps if s.get('method') == '__enter__' and s.get('var') in env]
        if not entered:
            return True
        manager = env[entered[0]['recv']]
        if error is None:
            manager.__exit__(None, None, None)
            return True
        return not manager.__exit__(type(error), error, error.__traceback__)


def run_row(runner, seq):
    """Runs one sequence and describes it: the final outcome, the observations, coverage, why not pinnable."""
    H = runner.H
    try:
        env, cbs, outcome, failed, drew = runner.execute(seq['steps'])
    except Overrun:
        return {'id': seq['id'], 'kind': 'unpinnable', 'why': 'it ran out of time', 'limit': True}
    except MemoryError:
        return {'id': seq['id'], 'kind': 'unpinnable', 'why': 'out of memory (the limit is %d MB)' % runner.job['memoryMb'], 'limit': True}
    except H['Unpinnable'] as u:
        return {'id': seq['id'], 'kind': 'unpinnable', 'why': str(u)}
    row = {'id': seq['id'], 'target': seq['target'], 'steps': seq['steps'][: failed + 1] if failed is not None else seq['steps']}
    if failed is not None:
        e = outcome
        if H['misfit'](e):
            row.update(kind='unpinnable', why='the arguments do not fit the signature: %s' % e)
        else:
            row.update(kind='throw', name=H['error_name'](e), message=obs.message(e), own=obs.raised_by_package(e, runner.job['pkgdir']))
            if H['draining']:
                row['iterated'] = True
    else:
        row.update(obs.observe(H, row['steps'], env, outcome, runner.bound))
    if row.get('kind') != 'unpinnable':
        row['steps'] = obs.bind_changed(H, row['steps'], runner.passed, runner.bound, env)
        row['checks'] = row.get('checks', []) + obs.argument_checks(H, row['steps'], env, runner.bound)
    row['checks'] = row.get('checks', []) + obs.callback_checks(H, cbs, runner.bound)
    if drew:
        row.update(kind='unpinnable', why='it drew from the random module', varies=True)
    if H['blocked']:
        row.update(kind='unpinnable', why='it tried to reach %s (no network while characterizing)' % H['blocked'][0])
    if runner.outside:
        row.update(kind='unpinnable', why='it wrote outside its sandbox folder or read standard input or the command line: %s' % runner.outside[0])
    rel = H['rel']
    row['lines'] = ['%s:%d' % (rel, n) for n in sorted(H['lines'])]
    row['arcs'] = ['%s:%d>%d' % (rel, a, b) for a, b in sorted(H['arcs'])]
    row['fs'] = obs.touched_sandbox(runner.sandbox)
    if runner.took and row.get('kind') == 'return':
        row['take'] = runner.took
    return row


def search(H, job):
    runner = Runner(H, job)
    spec = job['search']
    rng = random.Random(spec['seed'])
    with open(job['file'], encoding='utf-8', errors='replace') as fh:
        pools = gen.literal_pools(fh.read())
    classes = {n: c for n, c in vars(runner.module).items() if inspect.isclass(c) and getattr(c, '__module__', None) == runner.module.__name__}
    values = gen.Values(rng, pools, classes)
    deadline = time.monotonic() + spec['clockMs'] / 1000.0
    covered, raised, n = set(), set(), 0
    counts = {'unstable': 0, 'unusable': 0, 'cut': 0}
    kept_rows, extras, seen_outcomes = [], [], set()
    for target in spec['targets']:
        chains = []  # kept sequences of this target whose last step returned an instance of a module class
        for attempt in range(spec['tries']):
            if time.monotonic() > deadline:
                counts['cut'] = 1
                break
            try:
                sid = '%s#%d' % (target['name'], attempt)
                seq = extend(values, chains, classes, rng, sid) if chains and rng.random() < 0.35 else None
                seq = seq or build(values, runner.module, target, classes, rng, sid, job)
                if seq is None:
                    break
                obs.clear_sandbox(runner.sandbox)
                row = run_row(runner, seq)
            except Exception:  # noqa: BLE001 -- introspection that fails on an odd class ends its target, not the search
                break
            if row.get('kind') == 'unpinnable':
                counts['unstable' if row.get('varies') else 'unusable'] += 1
                if row.get('limit'):
                    break  # it ran out of time or memory once: more tries would only do that again
            else:
                obs.remember_constructions(values, row)
            units = set(row.get('lines', [])) | set(row.get('arcs', []))
            keep = row.get('kind') in ('return', 'observe', 'throw') and bool(units - covered)
            if row.get('kind') == 'throw':
                # one test per distinct exception per function (the step that raised)
                failing = row['steps'][-1]
                key = (target['name'], failing.get('method') or '.'.join(failing['fn']), row['name'])
                wrong = row['name'] in WRONG_GUESS and not row['own']
                keep = not wrong and key not in raised
                if keep:
                    raised.add(key)
            if keep:
                covered |= units
                n += 1
                H['out'](row)
                kept_rows.append(row)
                if row.get('returns') and len(row['steps']) < 6:
                    chains.append(row)
            elif row.get('kind') in ('return', 'observe') and len(extras) < EXTRAS:
                # a run that reached nothing new may still notice a mutant the kept ones miss
                key = seqmut.outcome_key(row) + repr(row['steps'])
                if key not in seen_outcomes:
                    seen_outcomes.add(key)
                    extras.append(row)
        if counts['cut']:
            break
    kills = {}
    if spec.get('mutationRuns') and not counts['cut'] and kept_rows:
        kills, killers = seqmut.mutation_phase(runner, run_row, kept_rows, extras, spec['mutationRuns'])
        for row in killers:
            n += 1
            H['out'](row)
    H['out'](dict(counts, done=True, why='clock' if counts['cut'] else 'tries', kept=n, kills=kills))


def extend(values, chains, classes, rng, sid):
    """A kept sequence that returned an instance, with one of that instance's methods called on it."""
    base = rng.choice(chains)
    cls = classes.get(base['returns'])
    methods = obs.public_methods(cls) if cls else []
    if not methods:
        return None
    values.fresh_sequence()
    steps = [dict(s) for s in base['steps']]
    var = steps[-1]['var']
    objects = [(s['var'], classes.get((s.get('fn') or [''])[-1])) for s in steps if s.get('var') and s.get('fn')] + [(var, cls)]
    name = rng.choice(methods)
    got = gen.arguments(values, getattr(cls, name), [cls.__name__, name], objects)
    if got is None:
        return None
    steps.append({'var': 'r%d' % len(steps), 'recv': var, 'method': name, 'args': got[0], 'kwargs': got[1]})
    return {'id': sid, 'target': base['target'], 'steps': steps}


def build(values, module, target, classes, rng, sid, job):
    """One candidate sequence for a target: a function call, or a class's construction and method calls."""
    values.fresh_sequence()
    scopes = target['name'].split('.')
    obj = getattr(module, target['name'], None)
    if inspect.isclass(obj):
        return obs.class_sequence(values, obj, target, classes, rng, sid)
    if not callable(obj):
        return None
    examples = target.get('examples') or []
    if examples and rng.random() < 0.3:
        ex = rng.choice(examples)
        return {'id': sid, 'target': target['name'], 'steps': [{'fn': [target['name']], 'args': [{'lit': a} for a in ex], 'kwargs': {}}]}
    made = gen.arguments(values, obj, scopes, [])
    if made is None:
        return None
    return {'id': sid, 'target': target['name'], 'steps': [{'fn': [target['name']], 'args': made[0], 'kwargs': made[1]}]}


def replay(H, job):
    # Each sequence twice in a row: the second run sees what the first left behind (a counter, a
    # cache in the module), as a test does that runs after another test of the same function.
    runner = Runner(H, job)
    for seq in job['replay']:
        for _ in range(2):
            obs.clear_sandbox(runner.sandbox)
            H['out'](run_row(runner, seq))
    H['out']({'done': True, 'why': 'replayed'})


def main(H, job):
    if 'replay' in job:
        replay(H, job)
    else:
        search(H, job)
