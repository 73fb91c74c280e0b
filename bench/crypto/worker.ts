import { measure, type MeasureRequest } from './measure.ts';

self.onmessage = async (event: MessageEvent<MeasureRequest>) => {
  self.postMessage(await measure(event.data));
};
