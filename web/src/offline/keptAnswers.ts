/**
 * The service worker keeps the last answer of every API read, so that an open brew session still
 * shows without network (sw.js). Those copies describe the server as it was: once this device's
 * waiting writes have reached the server, every copy older than them is wrong. If a read right
 * after the writes still cannot reach the network (the connection is back for the page a moment
 * before it is for the worker, or it flickers), the worker would answer with such a copy and the
 * page would show the brewer's tick or timer undone. So the copies are dropped first: such a read
 * then fails, is retried, and the page keeps what it showed until the server's answer arrives.
 *
 * Signing out drops them too (another person may use the device next).
 */
export function forgetKeptAnswers(worker: ServiceWorker | null | undefined = currentWorker(), timeoutMs = 2000): Promise<void> {
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    // A worker that never answers (an old release, one being replaced) must not hold the page.
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      channel.port1.close();
      resolve();
    }
    channel.port1.onmessage = done;
    worker.postMessage('clear-api', [channel.port2]);
  });
}

function currentWorker(): ServiceWorker | null {
  return typeof navigator === 'undefined' ? null : (navigator.serviceWorker?.controller ?? null);
}
