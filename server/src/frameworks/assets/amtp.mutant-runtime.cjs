// AMTP's mutant driver runtime (server/src/mutation/js/driver.ts inlines this function expression into
// each test file of the mutation sandbox). The test file's body is called once per round with the
// test registrars (it, test, specify) and hooks replaced by wrappers that:
// - register only the tests of the round (their case ids by title in `config.ids`, from the file's
//   comments; older files carry the id in the title) and none of the others;
// - in the coverage round, set __stryker__.currentTestId to the test's case id while it runs, so the
//   instrumented code counts which mutants each test reaches, and write that to `out` after each test;
// - in a mutant round, switch the mutant on (__stryker__.activeMutant) while a test or hook runs, with
//   a hit limit (a mutant that loops forever throws instead) and a time limit for async tests.
// Tests of a file run one after another in every framework AMTP drives (ava: test.serial), so one
// global switch is enough.
(function amtpMutantRuntime(config, fs) {
  'use strict';
  var g = globalThis;
  var ns = g.__stryker__ || (g.__stryker__ = {});
  var ID = /tc_[0-9a-f]{12}/;
  var wrapped = {};
  var elapsed = {};
  // A static mutant (one that runs while modules load) is switched on for the whole process by the env.
  var envMutant = (g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) || undefined;

  function save() {
    if (!config.out) return;
    var cov = ns.mutantCoverage || { static: {}, perTest: {} };
    try {
      fs.writeFileSync(config.out, JSON.stringify({ perTest: cov.perTest, static: cov.static, wrapped: Object.keys(wrapped), ms: elapsed }));
    } catch (e) {
      // The engine finds no coverage for these tests and leaves them out: never a failed test.
    }
  }

  // What runs now, so that when a mutant hangs its process in a way no limit here can stop (a regular
  // expression that backtracks for ever), the engine that kills the process knows which one it was.
  var progress = config.progress ? config.progress + '-' + ((g.process && g.process.pid) || 0) : null;
  function mark(text) {
    if (!progress) return;
    try {
      fs.writeFileSync(progress, text);
    } catch (e) {
      progress = null;
    }
  }

  // Each test that ends is logged, so what a process finished is not lost when it is killed later (a
  // hang, the budget) before its runner reports.
  var finished = config.finished ? config.finished + '-' + ((g.process && g.process.pid) || 0) : null;
  var LIMIT = /timed out|hit its limit|Hit count limit/i;
  function logEnd(round, caseId, failed, error) {
    var mutant = round.mutant === null ? envMutant : round.mutant;
    if (!finished || !caseId || !mutant) return;
    var outcome = !failed ? 'passed' : LIMIT.test(String(error && error.message)) ? 'timeout' : 'failed';
    try {
      fs.appendFileSync(finished, mutant + '\t' + caseId + '\t' + outcome + '\n');
    } catch (e) {
      finished = null;
    }
  }

  function enter(round, caseId) {
    if (round.mutant === null) {
      ns.activeMutant = envMutant;
      ns.currentTestId = caseId || undefined;
    } else {
      ns.activeMutant = round.mutant;
      ns.hitCount = 0;
      ns.hitLimit = round.hitLimit;
    }
    if (caseId) mark((round.mutant === null ? envMutant || '' : round.mutant) + '\n' + caseId);
    return Date.now();
  }

  function leave(round, caseId, started) {
    if (caseId) mark('');
    if (round.mutant === null) {
      ns.currentTestId = undefined;
      if (caseId) {
        elapsed[caseId] = (elapsed[caseId] || 0) + (Date.now() - started);
        save();
      }
    } else {
      ns.activeMutant = envMutant;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
  }

  /** What keeps the event loop alive, by kind ('Timeout', 'FSReqCallback', …); null where the runner hides it. */
  function resources() {
    var proc = g.process;
    if (!proc || typeof proc.getActiveResourcesInfo !== 'function') return null;
    var out = {};
    proc.getActiveResourcesInfo().forEach(function (k) {
      out[k] = (out[k] || 0) + 1;
    });
    return out;
  }

  /** Nothing but what was there before the test started (and `own` timers): nothing can settle its promise. */
  function idle(before, own) {
    var now = resources();
    if (!before || !now) return false;
    now.Timeout = (now.Timeout || 0) - own;
    return Object.keys(now).every(function (k) {
      return now[k] <= (before[k] || 0);
    });
  }

  var IDLE_POLL_MS = 50;
  var IDLE_TICKS = 5;

  /** Mocha arms its test's timer after the body returns its promise, so it is not in `before`. */
  function runnerTimers(ctx) {
    var r = ctx && typeof ctx.runnable === 'function' ? ctx.runnable() : undefined;
    return r && r.timer ? 1 : 0;
  }

  /**
   * A mutant round's promise, bounded: it fails at the round's time limit, or as soon as the event loop
   * holds nothing the test started (no timer, I/O or immediate of its own for a few polls), for then it
   * can never settle. A mutant that leaves a promise pending for ever (a queue that never resumes) is a
   * timeout in milliseconds, not seconds, and costs no later round its turn.
   */
  function timed(promise, round, before, ctx) {
    if (round.mutant === null || !round.timeoutMs) return promise;
    var timer;
    var poll;
    var quiet = 0;
    var limit = new Promise(function (_, reject) {
      // Not unref'd: a mutant whose promise never settles may leave nothing else pending, and ava ends a
      // file whose event loop drains ("Promise returned by test never resolved"), losing every later round.
      timer = setTimeout(function () {
        reject(new Error('AMTP: mutant ' + round.mutant + ' timed out after ' + round.timeoutMs + ' ms'));
      }, round.timeoutMs);
      poll = setInterval(function () {
        quiet = idle(before, 2 + runnerTimers(ctx)) ? quiet + 1 : 0;
        if (quiet >= IDLE_TICKS) reject(new Error('AMTP: mutant ' + round.mutant + ' timed out: its promise can never settle'));
      }, IDLE_POLL_MS);
    });
    return Promise.race([promise, limit]).finally(function () {
      clearTimeout(timer);
      clearInterval(poll);
    });
  }

  /** A test or hook body run under the round: the mutant on (or the test counted) while it runs, done-callbacks included. */
  function wrapFn(fn, round, caseId) {
    if (typeof fn !== 'function') return fn;
    var w = function () {
      var args = Array.prototype.slice.call(arguments);
      var started = enter(round, caseId);
      var settled = false;
      var finish = function (failed, error) {
        if (!settled) {
          settled = true;
          leave(round, caseId, started);
          logEnd(round, caseId, failed, error);
        }
      };
      var last = args.length - 1;
      var callback = last >= 0 && typeof args[last] === 'function' && fn.length > last;
      if (callback) {
        var done = args[last];
        args[last] = Object.assign(function (err) {
          finish(err !== undefined && err !== null, err);
          return done.apply(this, arguments);
        }, done);
      }
      var before = round.mutant === null ? null : resources();
      var result;
      try {
        result = fn.apply(this, args);
      } catch (e) {
        finish(true, e);
        throw e;
      }
      if (result && typeof result.then === 'function') {
        return timed(Promise.resolve(result), round, before, this).then(
          function (v) {
            finish();
            return v;
          },
          function (e) {
            finish(true, e);
            throw e;
          },
        );
      }
      if (!callback) finish();
      return result;
    };
    Object.defineProperty(w, 'length', { value: fn.length });
    return w;
  }

  function caseIdOf(title) {
    if (typeof title !== 'string') return undefined;
    if (config.ids && Object.prototype.hasOwnProperty.call(config.ids, title)) return config.ids[title];
    var m = ID.exec(title);
    return m ? m[0] : undefined;
  }

  /** A registrar (it, test, …) that registers only the round's tests, each wrapped; `base` is what registers. */
  function registrar(base, round) {
    return function (title) {
      var id = caseIdOf(title);
      if (!id || round.tests.indexOf(id) < 0) return undefined;
      wrapped[id] = 1;
      var rest = Array.prototype.slice.call(arguments, 1).map(function (a) {
        return wrapFn(a, round, id);
      });
      return base.apply(this, [(round.prefix || '') + title].concat(rest));
    };
  }

  function wrapTest(orig, round) {
    if (typeof orig !== 'function') return orig;
    // ava runs a file's tests concurrently unless they are serial; the switch is global.
    var base = config.serial && typeof orig.serial === 'function' ? orig.serial : orig;
    var w = registrar(base, round);
    w.only = w;
    w.serial = w;
    w.concurrent = w;
    w.skip = function () {};
    w.todo = function () {};
    w.failing = function () {};
    w.skipIf = function () {
      return w.skip;
    };
    w.runIf = function (cond) {
      return cond ? w : w.skip;
    };
    if (typeof orig.each === 'function')
      w.each = function () {
        return registrar(orig.each.apply(orig, arguments), round);
      };
    for (var hook of ['before', 'after', 'beforeEach', 'afterEach'])
      if (typeof orig[hook] === 'function') w[hook] = wrapHook(orig[hook].bind(orig), round);
    return w;
  }

  function wrapHook(orig, round) {
    if (typeof orig !== 'function') return orig;
    return function () {
      var args = Array.prototype.slice.call(arguments).map(function (a) {
        return wrapFn(a, round, undefined);
      });
      return orig.apply(this, args);
    };
  }

  function ownModule(key) {
    return !!config.root && key.indexOf(config.root) === 0 && key.indexOf('/node_modules/') < 0;
  }

  /**
   * Registers a fresh round: its mutant on while the modules under test load anew (jest: an isolated
   * module registry; plain CommonJS: the sandbox's modules out of require.cache, then put back), so a
   * mutant in code that runs at load time is in the modules its tests use.
   */
  function fresh(round, fn, jestObject, req, registrars) {
    ns.activeMutant = round.mutant;
    // Loading runs the mutant too: a loop it makes hits the limit (the load fails, so its tests do), and
    // a load that hangs where no limit reaches is named to the stall watch.
    ns.hitCount = 0;
    ns.hitLimit = round.hitLimit;
    mark(round.mutant + '\n(loading)');
    try {
      return isolated(fn, jestObject, req);
    } catch (e) {
      // The modules do not even load with this mutant on: each of the round's tests fails with why.
      var register = registrars.it || registrars.test || registrars.specify;
      for (var id of round.tests)
        register(id + ': loading the modules with the mutant on', function () {
          throw e;
        });
    } finally {
      mark('');
      ns.activeMutant = envMutant;
      ns.hitCount = undefined;
      ns.hitLimit = undefined;
    }
  }

  function isolated(fn, jestObject, req) {
    if (jestObject && typeof jestObject.isolateModules === 'function') return jestObject.isolateModules(fn);
    var cache = req && req.cache;
    if (!cache) return fn();
    var saved = {};
    for (var key of Object.keys(cache))
      if (ownModule(key)) {
        saved[key] = cache[key];
        delete cache[key];
      }
    try {
      return fn();
    } finally {
      for (var loaded of Object.keys(cache)) if (ownModule(loaded)) delete cache[loaded];
      Object.assign(cache, saved);
    }
  }

  return {
    rounds: config.rounds,
    fresh: fresh,
    /** The wrappers of one round, for the registrars and hooks the file uses (undefined where it has none). */
    wrappers: function (round, fns) {
      var out = {};
      for (var name of Object.keys(fns)) {
        var f = fns[name];
        out[name] = config.tests.indexOf(name) >= 0 ? wrapTest(f, round) : wrapHook(f, round);
      }
      return out;
    },
  };
});
