# AMTP's statement coverage for Python when coverage.py is not installed (server/src/coverage/python.ts).
# Usage: python3 -c <this file> OUT.json FILE[,FILE...] -m pytest ARGS...
# Records the lines executed in the listed files with sys.settrace, and their executable lines from
# the compiled code objects, then runs the module like `python -m` and exits with its status.
import dis, json, os, runpy, sys, threading

out, files, _m, module = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
wanted = {os.path.realpath(f) for f in files.split(',') if f}
executed = {f: set() for f in wanted}


def executable(path):
    lines = set()
    try:
        with open(path, 'rb') as fh:
            code = compile(fh.read(), path, 'exec')
    except (OSError, SyntaxError, ValueError):
        return lines
    stack = [code]
    while stack:
        c = stack.pop()
        lines.update(l for _, l in dis.findlinestarts(c) if l)
        stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
    return lines


def tracer(frame, event, arg):
    path = frame.f_code.co_filename
    real = os.path.realpath(path) if path in names or path not in skip else None
    if real not in wanted:
        skip.add(path)
        return None
    names.add(path)
    lines = executed[real]

    def local(frame, event, arg):
        if event == 'line':
            lines.add(frame.f_lineno)
        return local
    lines.add(frame.f_lineno)
    return local


names, skip = set(), set()
status = 0
sys.argv = [module] + sys.argv[5:]
threading.settrace(tracer)
sys.settrace(tracer)
try:
    runpy.run_module(module, run_name='__main__', alter_sys=True)
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
finally:
    sys.settrace(None)
    report = {}
    for f in wanted:
        lines = executable(f)
        report[f] = {'executed_lines': sorted(executed[f] & lines), 'missing_lines': sorted(lines - executed[f])}
    with open(out, 'w') as fh:
        json.dump({'files': report}, fh)
sys.exit(status)
