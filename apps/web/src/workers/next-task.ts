/**
 * Resolves in a task of its own, after the messages already waiting: a long job that awaits it
 * between slices lets a request that arrived meanwhile (a search) be answered first. A message
 * rather than a timer: nested timers are held back 4 ms each.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(undefined);
  });
}
