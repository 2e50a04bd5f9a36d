// A debugged test's outcome for the Testing view: the exit code when the debug adapter reports one,
// else each runner's printed summary; and the Debug Adapter Protocol messages that carry both.
import { strict as assert } from 'node:assert';
import { dapExitCode, dapOutput, debugOutcome } from '../../client/src/model/debugOutcome';

describe('client: the outcome of a debugged test', () => {
  it('an exit code decides when the adapter reports one (debugpy)', () => {
    assert.equal(debugOutcome(0, '1 passed, 4 deselected in 0.02s'), 'passed');
    assert.equal(debugOutcome(1, ''), 'failed');
    assert.equal(debugOutcome(0, '1 failed'), 'failed', 'a summary that says failed is not overruled by a zero exit');
  });

  it("without one (js-debug), each runner's summary decides", () => {
    assert.equal(debugOutcome(undefined, '  ✔ parses 30s\n\n  1 passing (4ms)\n'), 'passed');
    assert.equal(debugOutcome(undefined, '  0 passing (4ms)\n  1 failing\n'), 'failed');
    assert.equal(debugOutcome(undefined, 'Tests:       1 failed, 3 skipped, 4 total\n'), 'failed');
    assert.equal(debugOutcome(undefined, 'Tests:       1 passed, 3 skipped, 4 total\n'), 'passed');
    assert.equal(
      debugOutcome(undefined, ' \x1b[2m Tests \x1b[22m \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m (1)\n'),
      'passed',
      'vitest, coloured',
    );
    assert.equal(debugOutcome(undefined, '# tests 1\n# pass 0\n# fail 1\n'), 'failed', 'node --test, TAP');
    assert.equal(debugOutcome(undefined, 'ℹ tests 1\nℹ pass 1\nℹ fail 0\n'), 'passed', 'node --test, spec');
    assert.equal(debugOutcome(undefined, '==== 1 passed, 2 deselected in 0.10s ====\n'), 'passed', 'pytest');
  });

  it('no exit code and no summary, or a filter that matched no test: unknown, never a guess', () => {
    assert.equal(debugOutcome(undefined, ''), 'unknown');
    assert.equal(debugOutcome(undefined, 'Debugger attached.\n  0 passing (1ms)\n'), 'unknown');
  });

  it("records the adapter's output events (not its telemetry) and its exited event's code", () => {
    const out = (category: string, output: string) => ({ type: 'event', event: 'output', seq: 3, body: { category, output } });
    assert.equal(dapOutput(out('stdout', '  1 passing\n')), '  1 passing\n');
    assert.equal(dapOutput(out('stderr', 'boom\n')), 'boom\n');
    assert.equal(dapOutput(out('telemetry', 'js-debug/launch')), undefined);
    assert.equal(dapOutput({ type: 'response', command: 'threads', body: {} }), undefined);
    assert.equal(dapOutput(undefined), undefined);
    assert.equal(dapExitCode({ type: 'event', event: 'exited', body: { exitCode: 1 } }), 1);
    assert.equal(dapExitCode({ type: 'event', event: 'terminated', body: {} }), undefined);
    assert.equal(dapExitCode(out('stdout', 'x')), undefined);
  });
});
