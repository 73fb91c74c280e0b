import { useRef, useState } from 'react';
import { createRoute } from '@tanstack/react-router';
import { Button, Card } from '@sealbox/ui';
import { Previewer } from '../features/preview/index.ts';
import { rootRoute } from './root.tsx';
import './preview.css';

/**
 * docs/product.md "Screens" /preview: a test page for the previewer. 'Select File to Preview' opens
 * it on a local file, read straight from the File: nothing is uploaded, fetched or decrypted.
 */
function PreviewPage() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [open, setOpen] = useState(false);
  return (
    <section className="page">
      <h1>Preview</h1>
      <input
        ref={input}
        type="file"
        hidden
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          // The same file chosen again still fires a change next time.
          e.target.value = '';
          if (!chosen) return;
          setFile(chosen);
          setOpen(true);
        }}
      />
      <Button className="preview-page__pick" onClick={() => input.current?.click()}>
        Select File to Preview
      </Button>
      {file && (
        <Card className="preview-file">
          <strong>{file.name}</strong>
          <span className="muted">
            {file.type || 'unknown type'} · {file.size} bytes
          </span>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Open again
          </Button>
        </Card>
      )}
      {file && open && <Previewer source={{ kind: 'local', file }} onClose={() => setOpen(false)} />}
    </section>
  );
}

export const previewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/preview',
  component: PreviewPage,
});
