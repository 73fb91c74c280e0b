import type { RendererProps } from '../types.ts';

/** Placeholder until the Video view lands (issue 13): the shell's contract is in ../types.ts. */
export function VideoView(_props: RendererProps) {
  return <p className="preview__placeholder">Video preview is being built.</p>;
}
