# The child AMTP runs to characterize a Python module (server/src/characterize/python/sandbox.ts
# starts it with python3 -I -B, in its own process group, with a temporary HOME and cwd and a
# scrubbed env). argv[1] is a JSON job:
#   { module, paths: [sys.path entries], file, root, token, bound, memoryMb,
#     calls: [{ id, path: [names], args: [tagged] }] }
# or, instead of `calls`, `search` (a call-sequence search) or `replay` (sequences to run again):
# then amtp_char_seqrun.py beside this file takes over with this file's guards, tracer and encoder.
# Before importing the module it caps the address space (RLIMIT_AS) and refuses network access to
# anything but loopback. For each call it prints one line "<token> <json>" with what the call
# returned or raised and the lines (and line-to-line arcs) of the module's file it ran, traced with
# sys.settrace and reset before every call, so loading the module counts for none of them.
import itertools, json, math, os, random, re, resource, socket, sys
from collections.abc import Iterator

job_path = sys.argv[1]
with open(job_path, encoding='utf-8') as fh:
    job = json.load(fh)

# Result lines go to a private copy of stdout; the module's own prints go nowhere, so a print without
# a newline cannot glue itself to a result line.
results = os.fdopen(os.dup(1), 'w', encoding='utf-8')
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)


def out(row):
    results.write(job['token'] + ' ' + json.dumps(row, allow_nan=False) + '\n')
    results.flush()


# ---- memory: a MemoryError instead of the machine swapping
limit = int(job['memoryMb']) * 1024 * 1024
try:
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
except (ValueError, OSError):
    pass

# ---- network: loopback only (as amtp.char-nonet.cjs does for Node)
LOOPBACK = {'localhost', '::1', '0:0:0:0:0:0:0:1', ''}


def is_loopback(host):
    if host is None:
        return True
    h = host.decode() if isinstance(host, bytes) else str(host)
    h = h.strip('[]').lower()
    return h in LOOPBACK or h.startswith('127.')


class NetworkBlocked(ConnectionRefusedError):
    pass


blocked = []


def refuse(host):
    blocked.append(str(host))
    return NetworkBlocked('AMTP sandbox: network access to %s is blocked while characterizing' % (host,))


def host_of(address):
    # AF_UNIX addresses are paths (str or bytes): local by nature
    if isinstance(address, (tuple, list)) and address:
        return address[0]
    return None


_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex
_getaddrinfo, _create_connection = socket.getaddrinfo, socket.create_connection
_gethostbyname, _gethostbyname_ex = socket.gethostbyname, socket.gethostbyname_ex


def connect(self, address):
    if not is_loopback(host_of(address)):
        raise refuse(host_of(address))
    return _connect(self, address)


def connect_ex(self, address):
    if not is_loopback(host_of(address)):
        raise refuse(host_of(address))
    return _connect_ex(self, address)


def getaddrinfo(host, *args, **kwargs):
    if not is_loopback(host):
        raise refuse(host)
    return _getaddrinfo(host, *args, **kwargs)


def create_connection(address, *args, **kwargs):
    if not is_loopback(host_of(address)):
        raise refuse(host_of(address))
    return _create_connection(address, *args, **kwargs)


def gethostbyname(host):
    if not is_loopback(host):
        raise refuse(host)
    return _gethostbyname(host)


def gethostbyname_ex(host):
    if not is_loopback(host):
        raise refuse(host)
    return _gethostbyname_ex(host)


socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
socket.getaddrinfo, socket.create_connection = getaddrinfo, create_connection
socket.gethostbyname, socket.gethostbyname_ex = gethostbyname, gethostbyname_ex

# ---- values: the tags of server/src/characterize/values.ts


class Unpinnable(Exception):
    pass


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    tag = v.get('$')
    if tag == 'num':
        # a float that JSON would turn into an int ('2.0') is tagged as its repr
        return {'NaN': math.nan, 'Infinity': math.inf, '-Infinity': -math.inf, '-0': -0.0}.get(v['v']) or float(v['v'])
    if tag == 'undef':
        return None
    if tag == 'big':
        return int(v['v'])
    if tag == 'obj':
        return {k: decode(x) for k, x in v['v'].items()}
    if tag == 'tuple':
        return tuple(decode(x) for x in v['v'])
    if tag == 'bytes':
        return bytes.fromhex(v['v'])
    raise ValueError('bad tagged value %r' % (v,))


def encode(value, budget, top):
    budget[0] -= 1
    if budget[0] < 0:
        raise Unpinnable('larger than the bound')
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value) if abs(value) <= 2 ** 53 else {'$': 'big', 'v': str(int(value))}
    if isinstance(value, float):
        if math.isnan(value):
            # NaN != NaN: only a NaN result on its own can be asserted (math.isnan)
            if not top:
                raise Unpinnable('NaN inside a structure')
            return {'$': 'num', 'v': 'NaN'}
        if math.isinf(value):
            return {'$': 'num', 'v': 'Infinity' if value > 0 else '-Infinity'}
        if value == 0 and math.copysign(1, value) < 0:
            return {'$': 'num', 'v': '-0'}
        return float(value)
    if isinstance(value, str):
        budget[0] -= len(value) // 16
        if budget[0] < 0:
            raise Unpinnable('larger than the bound')
        return str(value)
    if isinstance(value, bytes) and top:
        budget[0] -= len(value) // 16
        if budget[0] < 0:
            raise Unpinnable('larger than the bound')
        return {'$': 'bytes', 'v': value.hex()}
    if isinstance(value, Drained):
        return {'$': 'iter', 'v': [encode(x, budget, False) for x in value]}
    if isinstance(value, list):
        return [encode(x, budget, False) for x in value]
    if isinstance(value, tuple):
        return {'$': 'tuple', 'v': [encode(x, budget, False) for x in value]}
    if isinstance(value, dict):
        if not all(type(k) is str for k in value):
            raise Unpinnable('a dict with keys that are not strings')
        return {'$': 'obj', 'v': {k: encode(x, budget, False) for k, x in value.items()}}
    raise Unpinnable('a value of type %s' % type(value).__name__)


# ---- coverage: lines and arcs of the module's file, per call
wanted = os.path.realpath(job['file'])
rel = os.path.relpath(wanted, os.path.realpath(job['root'])).replace(os.sep, '/')
lines, arcs = set(), set()
names = {}


def in_module(code):
    f = code.co_filename
    r = names.get(f)
    if r is None:
        r = names[f] = os.path.realpath(f) == wanted
    return r


def tracer(frame, event, arg):
    if event != 'call' or not in_module(frame.f_code):
        return None
    last = [-frame.f_code.co_firstlineno]

    def local(frame, event, arg):
        if event == 'line':
            lines.add(frame.f_lineno)
            arcs.add((last[0], frame.f_lineno))
            last[0] = frame.f_lineno
        elif event == 'return':
            arcs.add((last[0], -frame.f_code.co_firstlineno))
        return local

    return local


def error_name(e):
    t = type(e)
    if t.__module__ == 'builtins':
        return t.__qualname__
    return '%s.%s' % (t.__module__, t.__qualname__)


class Drained(list):
    """The items an iterator (a generator, map, zip...) yielded: pinned as list(call)."""


def drain(it, bound):
    # Consumed while traced, since a generator's body runs only now. An error raised on the way is
    # the call's behaviour when it is iterated: the written case raises it from list(call).
    global draining
    draining = True
    items = list(itertools.islice(it, bound + 1))
    draining = False
    if len(items) > bound:
        raise Unpinnable('an iterator of more than %d items' % bound)
    return Drained(items)


def misfit(e):
    # Binding the arguments fails before the function's own frame starts: that is AMTP's guess at the
    # signature being wrong, not the function's behaviour.
    tb = e.__traceback__
    return tb is not None and tb.tb_next is None and re.search(r'positional argument|keyword argument|takes no arguments', str(e))


draining = False


def thrown(row, e):
    row['kind'], row['name'] = 'throw', error_name(e)
    try:
        row['message'] = str(e)
    except BaseException:  # noqa: B036 -- a __str__ that fails leaves the type alone to pin
        row['message'] = ''
    if draining:
        row['iterated'] = True


def run(call):
    global draining
    draining = False
    row = {'id': call['id']}
    seed_state = None
    try:
        target = module
        for name in call['path']:
            target = getattr(target, name)
        if not callable(target):
            raise TypeError('%s is not callable' % '.'.join(call['path']))
        args = decode(call['args'])
        lines.clear()
        arcs.clear()
        del blocked[:]
        seed_state = random.getstate()
        sys.settrace(tracer)
        try:
            value = target(*args)
            if isinstance(value, Iterator):
                value = drain(value, job['bound'])
        finally:
            sys.settrace(None)
        try:
            row['kind'], row['value'] = 'return', encode(value, [job['bound']], True)
        except Unpinnable as u:
            row['kind'], row['why'] = 'unpinnable', str(u)
        except RecursionError:
            row['kind'], row['why'] = 'unpinnable', 'a value nested too deeply'
    except Unpinnable as u:
        row['kind'], row['why'] = 'unpinnable', str(u)
    except MemoryError:
        row['kind'], row['why'] = 'unpinnable', 'out of memory (the limit is %d MB)' % job['memoryMb']
    except TypeError as e:
        if misfit(e):
            row['kind'], row['why'] = 'unpinnable', 'the arguments do not fit the signature: %s' % e
        else:
            thrown(row, e)
    except BaseException as e:  # noqa: B036 -- what the call raised, SystemExit included, is its behaviour
        thrown(row, e)
    if seed_state is not None and random.getstate() != seed_state:
        # It drew from the random module: two runs can agree by chance (a choice among few), yet
        # its result depends on the seed, so it counts as varying between runs.
        row = {'id': call['id'], 'kind': 'unpinnable', 'why': 'it drew from the random module', 'varies': True}
    if blocked:
        # what it does depends on the network: a test pinning it would reach the network when run
        row = {'id': call['id'], 'kind': 'unpinnable', 'why': 'it tried to reach %s (no network while characterizing)' % blocked[0]}
    row['lines'] = ['%s:%d' % (rel, n) for n in sorted(lines)]
    row['spans'] = [[rel, n, n + 1] for n in sorted(lines)]
    row['arcs'] = ['%s:%d>%d' % (rel, a, b) for a, b in sorted(arcs)]
    return row


sys.path[:0] = job['paths']
try:
    import importlib

    module = importlib.import_module(job['module'])
except BaseException as e:  # noqa: B036 -- a module that fails to load (or exits) takes every call with it
    out({'load': 'failed', 'name': error_name(e), 'message': str(e)})
    sys.exit(0)

if 'search' in job or 'replay' in job:
    # Call sequences (amtp_char_seqrun.py beside this file): the harness's guards, tracer and encoder are theirs too.
    sys.path.append(os.path.dirname(os.path.abspath(__file__)))
    import amtp_char_seqrun

    # loaded: the parent's safety clock starts now, not at spawn (a busy machine starts Python slowly)
    out({'load': 'ok'})
    job['pkgdir'] = os.path.realpath(os.path.join(job['paths'][0], job['module'].split('.')[0]))
    amtp_char_seqrun.main(globals(), job)
else:
    # loaded: the parent's per-call timer starts now, not at spawn
    out({'load': 'ok'})
    for call in job['calls']:
        out(run(call))
results.close()
os._exit(0)
