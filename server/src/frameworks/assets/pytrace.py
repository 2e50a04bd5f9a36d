# AMTP's statement coverage for Python when coverage.py is not installed (server/src/coverage/python.ts).
# Usage: python3 -c <this file> OUT.json FILE[,FILE...] -m pytest ARGS...
# Records the lines executed in the listed files with sys.settrace and counts them as coverage.py
# counts statements (statements() below), then runs the module like `python -m` and exits with its status.
import ast, dis, io, json, os, re, runpy, sys, threading, tokenize

out, files, _m, module = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
wanted = {os.path.realpath(f) for f in files.split(',') if f}
executed = {f: set() for f in wanted}


PRAGMA = re.compile(r'#\s*(pragma|PRAGMA)[:\s]?\s*(no|NO)\s*(cover|COVER)')


def statements(path):
    """Statements as coverage.py counts them: the first line of each logical line that has bytecode,
    less docstrings and blocks excluded with `# pragma: no cover`; and the map from every physical line
    to its statement's first line (a dict literal over 30 lines is one statement, not 30)."""
    try:
        with open(path, 'rb') as fh:
            source = fh.read().decode('utf-8', 'replace')
        code = compile(source, path, 'exec')
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return set(), {}
    raw = set()
    stack = [code]
    while stack:
        c = stack.pop()
        raw.update(l for _, l in dis.findlinestarts(c) if l)
        stack.extend(k for k in c.co_consts if hasattr(k, 'co_code'))
    first, excluded, start = {}, set(), None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                if tok.type == tokenize.COMMENT and PRAGMA.search(tok.string):
                    excluded.add(tok.start[0])
                continue
            if start is None:
                start = tok.start[0]
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                for line in range(start, tok.end[0] + 1):
                    first.setdefault(line, start)
                start = None
    except (tokenize.TokenError, SyntaxError):
        pass
    ignored = set()
    # coverage.py's tokenizer takes a string as the module's docstring only when nothing precedes it
    module_doc = source.lstrip()[:1] in ('"', "'")
    for node in ast.walk(tree):
        body = getattr(node, 'body', None)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or (module_doc and isinstance(node, ast.Module)):
            b = body[0] if body else None
            if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str):
                ignored.update(range(b.lineno, b.end_lineno + 1))
        if isinstance(node, ast.stmt):
            heads = {node.lineno} | {d.lineno for d in getattr(node, 'decorator_list', [])}
            if heads & excluded or {first.get(l, l) for l in excluded} & heads:
                ignored.update(range(min(heads), node.end_lineno + 1))
    return {first.get(l, l) for l in raw} - ignored, first


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
        lines, first = statements(f)
        ran = {first.get(l, l) for l in executed[f]} & lines
        report[f] = {'executed_lines': sorted(ran), 'missing_lines': sorted(lines - ran)}
    with open(out, 'w') as fh:
        json.dump({'files': report}, fh)
sys.exit(status)
