import { useEffect, useState } from 'react';
import { Spinner } from '@sealbox/ui';
import { formatBytes } from '../../../lib/format-size.ts';
import { PREVIEW_ERRORS, type RendererProps } from '../types.ts';

/** A very large text file shows its beginning only (and says so). */
export const TEXT_PREVIEW_BYTES = 1024 * 1024;

/** docs/product.md "Screens" text (txt): shown as text in a <pre>, never parsed as HTML. */
export function TextView({ file, blob, head, onError }: RendererProps) {
  const [text, setText] = useState<string | null>(null);
  const [truncated, setTruncated] = useState(false);

  useEffect(() => {
    let live = true;
    // Only the beginning is fetched and decrypted when the shell can (a large log stays on the server).
    const start = head ? head(TEXT_PREVIEW_BYTES) : blob().then((whole) => whole.slice(0, TEXT_PREVIEW_BYTES));
    start
      .then(async (part) => {
        const decoded = new TextDecoder('utf-8').decode(await part.arrayBuffer());
        if (!live) return;
        setTruncated(file.size > TEXT_PREVIEW_BYTES);
        setText(decoded);
      })
      .catch(() => {
        if (live) onError(PREVIEW_ERRORS.text);
      });
    return () => {
      live = false;
    };
  }, [blob, head, file.size, onError]);

  if (text === null) {
    return (
      <div className="preview__loading">
        <Spinner label="Loading preview" />
      </div>
    );
  }
  return (
    <div className="text-view">
      {truncated && (
        <p className="text-view__note" role="status">
          Showing the first {formatBytes(TEXT_PREVIEW_BYTES)} of {formatBytes(file.size)}. Download the file to read all of it.
        </p>
      )}
      <pre className="text-view__text">{text}</pre>
    </div>
  );
}
