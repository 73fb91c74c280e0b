import type { ReactNode } from 'react';

/** A message in place of a view (an error, 'Unsupported File Type'), with what may be done about it. */
export function PreviewMessage({
  title,
  text,
  alert = false,
  children,
}: {
  title?: string;
  text: string;
  alert?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="preview__message" role={alert ? 'alert' : undefined}>
      {title && <h3 className="preview__message-title">{title}</h3>}
      <p>{text}</p>
      {children}
    </div>
  );
}
