import type { RendererProps } from '../types.ts';

/** Placeholder until the Pdf view lands (issue 13): the shell's contract is in ../types.ts. */
export function PdfView(_props: RendererProps) {
  return <p className="preview__placeholder">Pdf preview is being built.</p>;
}
