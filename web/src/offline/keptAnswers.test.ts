import { describe, expect, it } from 'vitest';
import { forgetKeptAnswers } from './keptAnswers';

/** A worker that answers on the port it is given, as sw.js does once its copies are deleted. */
function worker(answers: boolean) {
  const got: unknown[] = [];
  const w = {
    got,
    postMessage(message: unknown, transfer: MessagePort[]) {
      got.push(message);
      if (answers) setTimeout(() => transfer[0]?.postMessage('cleared'), 5);
    },
  };
  return w;
}

describe('forgetKeptAnswers', () => {
  it('asks the worker to drop its copies and waits for its answer', async () => {
    const w = worker(true);
    const started = Date.now();
    await forgetKeptAnswers(w as unknown as ServiceWorker, 5_000);
    expect(w.got).toEqual(['clear-api']);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('does not wait for ever on a worker that never answers', async () => {
    const w = worker(false);
    await forgetKeptAnswers(w as unknown as ServiceWorker, 20);
    expect(w.got).toEqual(['clear-api']);
  });

  it('is done at once without a worker', async () => {
    await expect(forgetKeptAnswers(null)).resolves.toBeUndefined();
  });
});
