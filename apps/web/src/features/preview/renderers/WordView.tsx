import type { RendererProps } from '../types.ts';

/** Placeholder until the Word view lands (issue 13): the shell's contract is in ../types.ts. */
export function WordView(_props: RendererProps) {
  return <p className="preview__placeholder">Word preview is being built.</p>;
}
