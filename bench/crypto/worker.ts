import { measure, type MeasureRequest } from './measure.ts';

self.onmessage = async (event: MessageEvent<MeasureRequest>) => {
  try {
    self.postMessage(await measure(event.data));
  } catch (error) {
    // Rethrown outside the handler's promise, it reaches the page as the worker's error event.
    setTimeout(() => {
      throw error;
    });
  }
};
