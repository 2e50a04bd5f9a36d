"""AMTP's Python mutation instrumenter (server/src/mutation/python/instrument.ts runs it).

As a program: reads {"files": [{"name": ..., "content": ...}]} as JSON on stdin and writes
{"files": [{"name", "content"}], "mutants": [...], "failed": [...]} on stdout. As a module, the
pytest plugin (amtp_mutation_plugin.py) calls instrument_tree() to compile the instrumented tree
itself, so tracebacks keep the original line numbers; the same file and first id give the same ids.

Operators on the ast: arithmetic, comparison, boolean, constant, return value and statement
deletion. Every mutant is placed as a mutant schema: one instrumented module in which each mutation
point asks `_amtp_m(id)` whether its mutant is the active one, and `_amtp_c(ids...)` counts which
test reached which mutants. The switch lives in builtins.__amtp_mutation__ (the pytest plugin
amtp_mutation_plugin.py and the guide's sandbox set it); AMTP_ACTIVE_MUTANT switches a mutant on for
a whole process, for mutants that run while the module loads.

Equivalent-mutant noise is left out as Meta's ACH does: nothing in logging calls (print, logging,
logger.*, warnings.warn), in code that cannot run (if False, if TYPE_CHECKING, the __main__ block,
statements after return/raise/break/continue) or in the text of error messages (raise X("..."),
assert ..., "..."). Those mutants are reported with their reason and never placed.
"""
import ast
import copy
import json
import sys

HEADER = '''
import builtins as _amtp_builtins
import os as _amtp_os
try:
    _amtp_ns = _amtp_builtins.__amtp_mutation__
except AttributeError:
    _amtp_ns = _amtp_builtins.__amtp_mutation__ = {
        "active": _amtp_os.environ.get("AMTP_ACTIVE_MUTANT") or None,
        "test": None, "hits": 0, "limit": None, "static": {}, "perTest": {}}
class _AmtpHitLimit(BaseException):
    """Not an Exception: code under test that catches Exception cannot swallow it and loop on."""
def _amtp_m(i, _ns=_amtp_ns):
    if _ns["active"] != i:
        return False
    _ns["hits"] += 1
    if _ns["limit"] is not None and _ns["hits"] > _ns["limit"]:
        raise _AmtpHitLimit("AMTP: mutant %s hit its limit (an endless loop)" % i)
    return True
def _amtp_c(*ids, _ns=_amtp_ns):
    t = _ns["test"]
    c = _ns["static"] if t is None else _ns["perTest"].setdefault(t, {})
    for i in ids:
        c[i] = c.get(i, 0) + 1
'''

LOG_OBJECTS = {"logging", "logger", "log", "LOG", "LOGGER", "_log", "_logger", "warnings"}
LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"}
ARITH = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div], ast.Div: [ast.Mult], ast.FloorDiv: [ast.Div],
         ast.Mod: [ast.Mult], ast.Pow: [ast.Mult], ast.LShift: [ast.RShift], ast.RShift: [ast.LShift],
         ast.BitAnd: [ast.BitOr], ast.BitOr: [ast.BitAnd], ast.BitXor: [ast.BitAnd]}
COMPARE = {ast.Lt: [ast.LtE, ast.GtE], ast.LtE: [ast.Lt, ast.Gt], ast.Gt: [ast.GtE, ast.LtE], ast.GtE: [ast.Gt, ast.Lt],
           ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq], ast.Is: [ast.IsNot], ast.IsNot: [ast.Is], ast.In: [ast.NotIn],
           ast.NotIn: [ast.In]}
JUMPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


def name_of(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def is_logging_call(node):
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return f.id == "print"
    if isinstance(f, ast.Attribute):
        owner = name_of(f.value)
        if isinstance(f.value, ast.Call) and name_of(f.value.func) == "getLogger":
            owner = "logger"  # logging.getLogger(__name__).debug(...)
        return owner in LOG_OBJECTS and (f.attr in LOG_METHODS or owner == "warnings")
    return False


def is_dead_test(test):
    if isinstance(test, ast.Constant) and not test.value:
        return True
    if name_of(test) == "TYPE_CHECKING":
        return True
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def is_error_type(node):
    n = name_of(node.func) if isinstance(node, ast.Call) else name_of(node)
    return bool(n) and (n.endswith("Error") or n.endswith("Exception") or n.endswith("Warning"))


class Instrumenter(ast.NodeTransformer):
    def __init__(self, file, source, first_id):
        self.file = file
        self.source = source
        self.next_id = first_id
        self.mutants = []
        self.ignored = []  # stack of reasons; non-empty means: record mutants as filtered

    # -- bookkeeping -------------------------------------------------------------------------
    def new_mutant(self, node, mutator, replacement):
        mid = str(self.next_id)
        self.next_id += 1
        m = {"id": mid, "file": self.file, "mutator": mutator, "replacement": replacement,
             "original": ast.get_source_segment(self.source, node) or ast.unparse(node),
             "line": node.lineno, "column": node.col_offset,
             "endLine": node.end_lineno, "endColumn": node.end_col_offset}
        if self.ignored:
            m["status"] = "Ignored"
            m["statusReason"] = self.ignored[0]  # the outermost reason, as StrykerJS's ignorers do
        self.mutants.append(m)
        return None if self.ignored else mid

    def ignoring(self, reason, fn):
        self.ignored.append(reason)
        try:
            return fn()
        finally:
            self.ignored.pop()

    # -- expressions -------------------------------------------------------------------------
    def switch(self, node, alternatives):
        """`alt1 if _amtp_m(i1) else (... else (_amtp_c(i1, ...) or node))`; alternatives are (mutator, node, original node)."""
        placed = []
        for mutator, alt, text_alt in alternatives:
            mid = self.new_mutant(node, mutator, ast.unparse(text_alt))
            if mid is not None:
                placed.append((mid, alt))
        if not placed:
            return node
        ids = [ast.Constant(mid) for mid, _ in placed]
        out = ast.BoolOp(op=ast.Or(), values=[call("_amtp_c", ids), node])
        for mid, alt in reversed(placed):
            out = ast.IfExp(test=call("_amtp_m", [ast.Constant(mid)]), body=alt, orelse=out)
        return ast.copy_location(out, node)

    def visit_BinOp(self, node):
        orig = copy.deepcopy(node)
        self.generic_visit(node)
        alts = [("ArithmeticOperator", ast.BinOp(left=node.left, op=op(), right=node.right), ast.BinOp(left=orig.left, op=op(), right=orig.right))
                for op in ARITH.get(type(node.op), [])]
        return self.switch(node, alts)

    def visit_Compare(self, node):
        orig = copy.deepcopy(node)
        self.generic_visit(node)
        alts = []
        for i, o in enumerate(node.ops):
            for op in COMPARE.get(type(o), []):
                ops = list(node.ops)
                ops[i] = op()
                alts.append(("ComparisonOperator", ast.Compare(left=node.left, ops=ops, comparators=node.comparators),
                             ast.Compare(left=orig.left, ops=ops, comparators=orig.comparators)))
        return self.switch(node, alts)

    def visit_BoolOp(self, node):
        orig = copy.deepcopy(node)
        self.generic_visit(node)
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        return self.switch(node, [("BooleanOperator", ast.BoolOp(op=other(), values=node.values), ast.BoolOp(op=other(), values=orig.values))])

    def visit_UnaryOp(self, node):
        orig = copy.deepcopy(node)
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self.switch(node, [("BooleanOperator", node.operand, orig.operand)])
        if isinstance(node.op, ast.USub) and not isinstance(node.operand, ast.Constant):
            return self.switch(node, [("ArithmeticOperator", node.operand, orig.operand)])
        return node

    def visit_Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            alt = ast.Constant(not v)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            alt = ast.Constant(v + 1)
        elif isinstance(v, str):
            alt = ast.Constant("" if v else "AMTP")
        elif isinstance(v, bytes):
            alt = ast.Constant(b"" if v else b"AMTP")
        else:
            return node
        return self.switch(node, [("ConstantValue", alt, alt)])

    def visit_JoinedStr(self, node):
        # An f-string's parts cannot be switched one by one; the whole string can.
        return self.switch(node, [("ConstantValue", ast.Constant(""), ast.Constant(""))])

    def visit_Return(self, node):
        if node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None):
            return node
        orig = copy.deepcopy(node.value)
        node.value = self.return_switch(self.visit(node.value), orig)
        return node

    def return_switch(self, value, orig):
        mid = self.new_mutant(orig, "ReturnValue", "None")
        if mid is None:
            return value
        covered = ast.BoolOp(op=ast.Or(), values=[call("_amtp_c", [ast.Constant(mid)]), value])
        return ast.copy_location(ast.IfExp(test=call("_amtp_m", [ast.Constant(mid)]), body=ast.Constant(None), orelse=covered), orig)

    # -- where not to mutate -------------------------------------------------------------------
    def visit_Call(self, node):
        if is_logging_call(node):
            return self.ignoring("in a logging call", lambda: self.generic_visit(node))
        return self.generic_visit(node)

    def visit_Raise(self, node):
        if isinstance(node.exc, ast.Call) and is_error_type(node.exc):
            node.exc.func = self.visit(node.exc.func)
            node.exc.args = [self.error_text(a) for a in node.exc.args]
            node.exc.keywords = [self.visit(k) for k in node.exc.keywords]
            return node
        return self.generic_visit(node)

    def visit_Assert(self, node):
        node.test = self.visit(node.test)
        if node.msg is not None:
            node.msg = self.error_text(node.msg)
        return node

    def error_text(self, arg):
        if isinstance(arg, (ast.Constant, ast.JoinedStr)) or (isinstance(arg, ast.BinOp) and isinstance(arg.op, (ast.Add, ast.Mod))):
            return self.ignoring("in the text of an error message", lambda: self.visit(arg))
        return self.visit(arg)

    def visit_Match(self, node):
        node.subject = self.visit(node.subject)
        for case in node.cases:  # patterns are not expressions: they stay as they are
            if case.guard is not None:
                case.guard = self.visit(case.guard)
            case.body = self.statements(case.body)
        return node

    def visit_arg(self, node):
        return node  # annotations are not run

    def visit_AnnAssign(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_FunctionDef(self, node):
        node.args = self.visit(node.args)
        node.body = self.statements(node.body, docstring=True)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        node.body = self.statements(node.body, docstring=True)
        return node

    def visit_If(self, node):
        if is_dead_test(node.test):
            node.body = self.ignoring("in code that cannot run", lambda: self.statements(node.body))
            node.orelse = self.statements(node.orelse)
            return node
        node.test = self.visit(node.test)
        node.body = self.statements(node.body)
        node.orelse = self.statements(node.orelse)
        return node

    def generic_body(self, node):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(node, field, None), list) and getattr(node, field) and isinstance(getattr(node, field)[0], ast.stmt):
                setattr(node, field, self.statements(getattr(node, field)))
        return node

    # -- statements -----------------------------------------------------------------------------
    def statements(self, stmts, docstring=False):
        out = []
        jumped = False
        for i, s in enumerate(stmts):
            if docstring and i == 0 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                out.append(s)
                continue
            if jumped:
                out.append(self.ignoring("in code that cannot run", lambda s=s: self.statement(s)))
            else:
                out.append(self.statement(s))
            jumped = jumped or isinstance(s, JUMPS)
        return out

    def statement(self, s):
        logging = isinstance(s, ast.Expr) and is_logging_call(s.value)
        alts = []
        if isinstance(s, ast.AugAssign):
            for op in ARITH.get(type(s.op), []):
                alts.append(("AssignmentOperator", ast.AugAssign(target=copy.deepcopy(s.target), op=op(), value=copy.deepcopy(s.value))))
        if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)) or isinstance(s, (ast.AugAssign, ast.Raise)):
            alts.append(("StatementDeletion", ast.Pass()))
        texts = [(mutator, ast.unparse(alt)) for mutator, alt in alts]
        new = self.compound(s) if isinstance(s, COMPOUND) else self.visit(s)
        if logging:
            return self.ignoring("in a logging call", lambda: self.statement_switch(s, new, alts, texts))
        return self.statement_switch(s, new, alts, texts)

    def statement_switch(self, s, new, alts, texts):
        """`if _amtp_m(i1): alt1 elif ...: ... else: _amtp_c(i1, ...); statement`."""
        placed = []
        for (mutator, alt), (_, text) in zip(alts, texts):
            mid = self.new_mutant(s, mutator, text)
            if mid is not None:
                placed.append((mid, alt))
        if not placed:
            return new
        out = [ast.Expr(call("_amtp_c", [ast.Constant(mid) for mid, _ in placed])), new]
        for mid, alt in reversed(placed):
            out = [ast.If(test=call("_amtp_m", [ast.Constant(mid)]), body=[alt], orelse=out)]
        return ast.copy_location(out[0], s)

    def compound(self, s):
        for field in ("target", "iter", "test", "items"):
            v = getattr(s, field, None)
            if isinstance(v, list):
                setattr(s, field, [self.visit(x) for x in v])
            elif isinstance(v, ast.AST):
                setattr(s, field, self.visit(v))
        for h in getattr(s, "handlers", []):
            h.body = self.statements(h.body)
        return self.generic_body(s)


def call(name, args):
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[])


def header_index(tree):
    """After the module docstring and `from __future__` imports."""
    i = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        i = 1
    while i < len(body) and isinstance(body[i], ast.ImportFrom) and body[i].module == "__future__":
        i += 1
    return i


def instrument_tree(name, source, first_id):
    """The instrumented module's tree (original line numbers kept), its mutants, and the next free id."""
    tree = ast.parse(source, filename=name)
    ins = Instrumenter(name, source, first_id)
    tree.body = ins.statements(tree.body, docstring=True)
    if any("status" not in m for m in ins.mutants):
        at = header_index(tree)
        tree.body[at:at] = ast.parse(HEADER).body
    ast.fix_missing_locations(tree)
    return tree, ins.mutants, ins.next_id


def instrument(name, source, first_id):
    tree, mutants, next_id = instrument_tree(name, source, first_id)
    return ast.unparse(tree) + "\n", mutants, next_id


def main():
    req = json.load(sys.stdin)
    files, mutants, failed = [], [], []
    next_id = 0
    for f in req["files"]:
        try:
            first = next_id
            text, ms, next_id = instrument(f["name"], f["content"], next_id)
        except (SyntaxError, ValueError, RecursionError) as e:
            failed.append({"name": f["name"], "error": "%s: %s" % (type(e).__name__, e)})
            continue
        files.append({"name": f["name"], "content": text, "firstId": first})
        mutants.extend(ms)
    json.dump({"files": files, "mutants": mutants, "failed": failed}, sys.stdout)


if __name__ == "__main__":
    main()
