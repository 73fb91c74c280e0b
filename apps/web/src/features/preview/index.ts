/**
 * The previewer (docs/product.md "Screens" (Previewer), "States", "Messages" and "Limits"):
 * full-screen views of pdf, text, image, Word, audio and video, decrypted in the crypto worker (or
 * a local File on /preview). Routes compose it: `usePreviewer` for a file browser's list,
 * `Previewer` for a single source.
 */
export { Previewer, type PreviewerProps } from './Previewer.tsx';
export { usePreviewer, type PreviewerHandle } from './usePreviewer.tsx';
export { detectKind, unsupportedText } from './detect.ts';
export type { PreviewItem, PreviewSource } from './source.ts';
export { PREVIEW_ERRORS, type PreviewKind } from './types.ts';
