"""AMTP's pytest plugin for mutation runs (server/src/mutation/python/pyEngine.ts loads it with
`-p amtp_mutation_plugin`, this folder on PYTHONPATH, and the plan's path in AMTP_MUTATION_PLAN).

The plan: {"targets": {"<abs path>": <first mutant id>}, "mode": "coverage" | "mutants",
"rounds": [{"mutant": id, "tests": [case ids], "hitLimit": n, "timeoutMs": n}], "out": "<abs path>",
"ids": {"<test file name>::[<Class>::]<function>": case id}} (the case ids the files' comments give,
server/src/frameworks/caseMap.ts; older files carry the id in the function name).

- Each target module is imported instrumented (amtp_mutate.instrument_tree, compiled under its own
  file name, so tracebacks keep their lines): one module in which every mutant is switched at run time.
- coverage: the tests run as pytest runs them; while a test runs its case id is the current test, so
  the module counts which mutants each test reaches. Written to "out" with each test's time.
- mutants: instead of pytest's loop, each round switches its mutant on and runs the tests that reach
  it (runtestprotocol, as pytest-rerunfailures re-runs a test), each with a time limit; a test that
  fails kills the mutant. Written to "out" as [mutant, case id, "killed" | "survived" | "timeout"].
"""
import builtins
import importlib.abc
import importlib.machinery
import json
import os
import re
import signal
import sys
import time

import amtp_mutate
import pytest

CASE_ID = re.compile(r"tc_[0-9a-f]{12}")
PLAN = None
BY_NODE = {}


class AmtpTimeout(BaseException):
    """Not an Exception: a test that catches Exception cannot swallow it."""


class InstrumentedLoader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname, path, first_id):
        super().__init__(fullname, path)
        self.first_id = first_id

    def get_code(self, fullname):
        with open(self.path, encoding="utf-8") as f:
            source = f.read()
        tree, _, _ = amtp_mutate.instrument_tree(self.path, source, self.first_id)
        return compile(tree, self.path, "exec", dont_inherit=True)


class InstrumentedFinder(importlib.abc.MetaPathFinder):
    def __init__(self, targets):
        self.targets = {os.path.realpath(k): v for k, v in targets.items()}

    def find_spec(self, fullname, path, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin:
            return None
        first = self.targets.get(os.path.realpath(spec.origin))
        if first is None:
            return None
        spec.loader = InstrumentedLoader(fullname, spec.origin, first)
        return spec


def namespace():
    ns = getattr(builtins, "__amtp_mutation__", None)
    if ns is None:
        ns = builtins.__amtp_mutation__ = {"active": os.environ.get("AMTP_ACTIVE_MUTANT") or None, "test": None,
                                            "hits": 0, "limit": None, "static": {}, "perTest": {}}
    return ns


def case_id(item):
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    cls = getattr(item, "cls", None)
    key = "%s::%s%s" % (os.path.basename(str(item.fspath)), (cls.__name__ + "::") if cls else "", name)
    ids = PLAN.get("ids") or {} if PLAN is not None else {}
    if key in ids:
        return ids[key]
    m = CASE_ID.search(item.nodeid)
    return m.group(0) if m else None


def pytest_collection_modifyitems(session, config, items):
    if PLAN is not None:
        for item in items:
            BY_NODE[item.nodeid] = case_id(item)


def write(data):
    with open(PLAN["out"], "w", encoding="utf-8") as f:
        json.dump(data, f)


def pytest_configure(config):
    global PLAN
    path = os.environ.get("AMTP_MUTATION_PLAN")
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        PLAN = json.load(f)
    PLAN["elapsed"] = {}
    PLAN["failed"] = set()
    namespace()
    sys.meta_path.insert(0, InstrumentedFinder(PLAN["targets"]))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if PLAN is None or PLAN["mode"] != "coverage":
        yield
        return
    ns = namespace()
    cid = case_id(item)
    ns["test"] = cid
    started = time.monotonic()
    yield
    ns["test"] = None
    if cid:
        PLAN["elapsed"][cid] = PLAN["elapsed"].get(cid, 0) + int((time.monotonic() - started) * 1000)
    write({"perTest": ns["perTest"], "static": ns["static"], "ms": PLAN["elapsed"], "failed": sorted(PLAN["failed"])})


def pytest_runtest_logreport(report):
    if PLAN is not None and PLAN["mode"] == "coverage" and report.failed:
        cid = BY_NODE.get(report.nodeid)
        if cid:
            PLAN["failed"].add(cid)


def on_alarm(signum, frame):
    raise AmtpTimeout("AMTP: the mutant made the test run past its time limit")


def progress(text):
    """What runs now ("mutant\ntest", or nothing between tests): the engine's watchdog reads it."""
    with open(PLAN["out"] + ".progress", "w", encoding="utf-8") as f:
        f.write(text)


def run_round(items, rnd, results):
    from _pytest.runner import runtestprotocol
    ns = namespace()
    for cid in rnd["tests"]:
        item = items.get(cid)
        if item is None:
            continue
        progress("%s\n%s" % (rnd["mutant"], cid))
        if hasattr(item, "_initrequest"):
            item._initrequest()
        ns["active"], ns["hits"], ns["limit"] = rnd["mutant"], 0, rnd.get("hitLimit")
        timed_out = False
        signal.setitimer(signal.ITIMER_REAL, max(rnd.get("timeoutMs", 5000), 1) / 1000.0)
        try:
            reports = runtestprotocol(item, nextitem=None, log=False)
        except AmtpTimeout:
            reports, timed_out = [], True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            ns["active"], ns["limit"] = None, None
            progress("")
        timed_out = timed_out or any(r.failed and ("AmtpTimeout" in str(r.longrepr) or "_AmtpHitLimit" in str(r.longrepr)) for r in reports)
        killed = timed_out or any(r.failed for r in reports)
        results.append([rnd["mutant"], cid, "timeout" if timed_out else "killed" if killed else "survived"])


def pytest_runtestloop(session):
    if PLAN is None or PLAN["mode"] != "mutants":
        return None
    items = {}
    for item in session.items:
        cid = case_id(item)
        if cid and cid not in items:
            items[cid] = item
    previous = signal.signal(signal.SIGALRM, on_alarm)
    results = []
    try:
        for rnd in PLAN["rounds"]:
            run_round(items, rnd, results)
            write({"results": results})
    finally:
        signal.signal(signal.SIGALRM, previous)
    write({"results": results, "done": True})
    return True
