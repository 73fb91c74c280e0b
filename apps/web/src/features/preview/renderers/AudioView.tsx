import type { RendererProps } from '../types.ts';

/** Placeholder until the Audio view lands (issue 13): the shell's contract is in ../types.ts. */
export function AudioView(_props: RendererProps) {
  return <p className="preview__placeholder">Audio preview is being built.</p>;
}
