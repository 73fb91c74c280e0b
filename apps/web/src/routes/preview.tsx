import { useRef, useState } from 'react';
import { createRoute } from '@tanstack/react-router';
import { Button, Card } from '@sealbox/ui';
import { rootRoute } from './root.tsx';

/** SPEC.md 2: a test page for the previewer on a local file (the previewer is a later issue). */
function PreviewPage() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  return (
    <section className="page">
      <h1>Preview</h1>
      <input ref={input} type="file" hidden onChange={(e) => setFile(e.target.files?.[0])} />
      <Button onClick={() => input.current?.click()}>Select File to Preview</Button>
      {file && (
        <Card className="preview-file">
          <strong>{file.name}</strong>
          <span className="muted">
            {file.type || 'unknown type'} · {file.size} bytes
          </span>
        </Card>
      )}
    </section>
  );
}

export const previewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/preview',
  component: PreviewPage,
});
