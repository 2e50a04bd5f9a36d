# Mutation as a second objective of AMTP's Python call sequences (amtp_char_seqrun.py calls it after
# its search): the module is instrumented with AMTP's own mutation engine (amtp_mutate.py, mutant
# schemata switched by builtins.__amtp_mutation__) and loaded a second time under its own name; each
# sequence of the pool (the kept ones first, then others that ran cleanly) is traced with no mutant on
# to learn which mutants it reaches, and each mutant, in source order, is run against the sequences that
# reach it: every kept one, then others until one kills it. A sequence kills a mutant when its test
# would notice: its outcome, value, observers or checks differ, or it raises (the hit limit ends an
# endless loop). A count of runs bounds it, never the clock. Returns the kept rows' kills and the
# other rows that kill a mutant no kept row kills.
import json
import types

import amtp_char_observe as obs
import amtp_mutate

# kept sequences tried against one mutant, at most; then other sequences until one kills it
KEPT_TRIES = 6
OTHER_TRIES = 3


def outcome_key(row):
    """What a test of the row asserts: its outcome, value or error, and its checks."""
    keys = ('kind', 'value', 'expr', 'name', 'message', 'iterated', 'checks', 'take', 'why')
    return json.dumps([row.get(k) for k in keys], sort_keys=True, default=repr)


def mutant_module(module):
    """The module instrumented and executed under its own name (a second copy beside the original), with its mutants."""
    path = module.__file__
    with open(path, encoding='utf-8') as fh:
        source = fh.read()
    tree, mutants, _ = amtp_mutate.instrument_tree(path, source, 0)
    code = compile(tree, path, 'exec', dont_inherit=True)
    copy = types.ModuleType(module.__name__)
    for k in ('__file__', '__package__', '__spec__', '__path__'):
        if hasattr(module, k):
            setattr(copy, k, getattr(module, k))
    exec(code, copy.__dict__)  # noqa: S102 -- the module under test, as its import runs it
    placed = [m for m in mutants if 'status' not in m]
    return copy, sorted(placed, key=lambda m: (m['line'], m['column'], int(m['id'])))


class Budget:
    def __init__(self, runs):
        self.left = runs

    def take(self):
        self.left -= 1
        return self.left >= 0


def run_with(runner, run_row, seq, ns, active=None, test=None, limit=None):
    obs.clear_sandbox(runner.sandbox)
    ns['active'], ns['test'], ns['hits'], ns['limit'] = active, test, 0, limit
    try:
        return run_row(runner, seq)
    finally:
        ns['active'], ns['test'], ns['limit'] = None, None, None


def mutation_phase(runner, run_row, kept, extras, runs):
    """(kills of the kept rows by id, extra rows that kill a mutant no kept row kills, each with `mutants`)."""
    budget = Budget(runs)
    original = runner.module
    try:
        mutated, mutants = mutant_module(original)
    except Exception:  # noqa: BLE001 -- a module the engine cannot instrument is searched by coverage alone
        return {}, []
    import builtins
    ns = builtins.__amtp_mutation__
    runner.module = mutated
    traced = []
    try:
        for row, is_kept in [(r, True) for r in kept] + [(r, False) for r in extras]:
            if not budget.take():
                break
            again = run_with(runner, run_row, row, ns, test=row['id'])
            reached = ns['perTest'].pop(row['id'], {})
            if outcome_key(again) == outcome_key(row) and reached:
                traced.append((row, is_kept, reached))
        kills, extra_kills = {}, {}
        for m in mutants:
            mid = m['id']
            reaching = [t for t in traced if mid in t[2]]
            if not reaching:
                continue
            killed = False
            for row, is_kept, reached in [t for t in reaching if t[1]][:KEPT_TRIES] + [t for t in reaching if not t[1]][:OTHER_TRIES]:
                if (killed and not is_kept) or not budget.take():
                    continue
                limit = max(10000, 100 * reached.get(mid, 0))
                seen = run_with(runner, run_row, row, ns, active=mid, limit=limit)
                if outcome_key(seen) != outcome_key(row):
                    killed = True
                    (kills if is_kept else extra_kills).setdefault(row['id'], []).append(mid)
            if budget.left <= 0:
                break
    finally:
        runner.module = original
    killed_by_kept = {m for ms in kills.values() for m in ms}
    extra_rows = []
    for row, is_kept, _ in traced:
        own = [m for m in extra_kills.get(row['id'], []) if m not in killed_by_kept]
        if not is_kept and own:
            extra_rows.append(dict(row, mutants=own))
    return kills, extra_rows
