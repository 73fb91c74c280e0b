/** Pdf files the journeys open, made here from their objects rather than shipped. */

/** A pdf from its objects (1-based, in order), with a correct cross-reference table. */
export function pdf(objects: string[]): Uint8Array {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}

/** A stream object holding `content` (its /Length counted here), with `extra` dictionary entries. */
export const stream = (content: string, extra = '') => `<< /Length ${content.length}${extra} >>\nstream\n${content}\nendstream`;
