"""AMTP: checks Python snippets with CPython's own compiler (run by server/src/frameworks/pySyntax.ts).

stdin (UTF-8 JSON): [{"key": ..., "snippets": [{"field": ..., "source": ..., "mode": "exec" | "eval"}], "unit": ...}]
stdout (JSON): {"<key>": "<reason>"} for every item with a snippet that does not parse, or whose
unit (the whole test function) does not compile. Nothing is executed.
"""
import ast
import json
import sys

if sys.version_info < (3, 8):
    sys.exit(3)


def where(err):
    return "%s:%s" % (err.lineno, err.offset) if err.lineno else "?"


def check(item):
    for s in item["snippets"]:
        try:
            compile(s["source"], "<snippet>", s["mode"], flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        except SyntaxError as err:  # IndentationError and TabError too
            return "%s does not parse: %s at %s" % (s["field"], err.msg, where(err))
        except ValueError as err:  # null bytes, unencodable text
            return "%s does not parse: %s" % (s["field"], err)
    unit = item.get("unit")
    if unit is None:
        return None
    try:
        compile(unit, "<test>", "exec", dont_inherit=True)
    except SyntaxError as err:
        return "the test does not compile: %s at line %s of the test" % (err.msg, err.lineno)
    except ValueError as err:
        return "the test does not compile: %s" % err
    return None


def main():
    items = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    out = {}
    for item in items:
        reason = check(item)
        if reason:
            out[item["key"]] = reason
    sys.stdout.buffer.write(json.dumps(out).encode("utf-8"))


main()
