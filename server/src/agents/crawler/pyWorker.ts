// A worker thread of PyPool: parses the Python files it is sent and answers with their facts.
// Built as its own bundle (dist/pyWorker.js) next to the one that starts it.
import { parentPort } from 'node:worker_threads';
import { loadPython } from '../../frameworks/pyGrammar';
import { extractPySymbols } from './pySymbols';

export interface PyJob {
  id: number;
  text: string;
}

export type PyAnswer = { id: number; ok: true; facts: ReturnType<typeof extractPySymbols> } | { id: number; ok: false; error: string };

const port = parentPort;
if (port) {
  const ready = loadPython();
  port.on('message', async (job: PyJob) => {
    let answer: PyAnswer;
    try {
      answer = { id: job.id, ok: true, facts: extractPySymbols(await ready, job.text) };
    } catch (e) {
      answer = { id: job.id, ok: false, error: (e as Error).message };
    }
    port.postMessage(answer);
  });
}
