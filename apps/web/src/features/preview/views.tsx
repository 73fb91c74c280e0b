/**
 * The previewer's views, each loaded on demand (the pdf and Word code stays out of the main
 * bundle). A view whose code cannot be fetched (offline, or the server gone) reports it through
 * the shell's onError rather than throwing, so the shell can say why and load it again later: a
 * rejected `lazy` stays rejected, so each attempt gets its own.
 */
import { Component, lazy, useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { PreviewMessage } from './PreviewMessage.tsx';
import { PREVIEW_ERRORS, type PreviewKind, type RendererProps } from './types.ts';

export type ViewKind = Exclude<PreviewKind, 'unsupported'>;
type ViewModule = { default: ComponentType<RendererProps> };

const LOADERS: Record<ViewKind, () => Promise<ViewModule>> = {
  pdf: () => import('./renderers/PdfView.tsx').then((m) => ({ default: m.PdfView })),
  word: () => import('./renderers/WordView.tsx').then((m) => ({ default: m.WordView })),
  audio: () => import('./renderers/AudioView.tsx').then((m) => ({ default: m.AudioView })),
  video: () => import('./renderers/VideoView.tsx').then((m) => ({ default: m.VideoView })),
  image: () => import('./renderers/ImageView.tsx').then((m) => ({ default: m.ImageView })),
  text: () => import('./renderers/TextView.tsx').then((m) => ({ default: m.TextView })),
};

/** What a view that failed to load or render shows. */
export const VIEW_FAILED: Record<ViewKind, string> = {
  pdf: PREVIEW_ERRORS.decrypt,
  word: PREVIEW_ERRORS.word,
  audio: PREVIEW_ERRORS.decrypt,
  video: PREVIEW_ERRORS.decrypt,
  image: PREVIEW_ERRORS.decrypt,
  text: PREVIEW_ERRORS.text,
};

/** Stands in for a view whose code did not arrive: tells the shell, shows nothing itself. */
function unloaded(kind: ViewKind): ViewModule {
  return {
    default: function Unloaded({ onError }: RendererProps) {
      useEffect(() => onError(VIEW_FAILED[kind]), [onError]);
      return null;
    },
  };
}

/** Views whose code arrived: every previewer uses these from then on. */
const loaded = new Map<ViewKind, ComponentType<RendererProps>>();

/** The view of `kind`; until its code has arrived, loaded afresh for each `attempt`. */
export function useView(kind: ViewKind, attempt: number): ComponentType<RendererProps> {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt is what asks for a new load
  return useMemo(() => {
    const known = loaded.get(kind);
    if (known) return known;
    const view = lazy(() =>
      LOADERS[kind]().then(
        (module) => {
          loaded.set(kind, view);
          return module;
        },
        () => unloaded(kind),
      ),
    );
    return view;
  }, [kind, attempt]);
}

export class ViewBoundary extends Component<{ fallback: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <PreviewMessage alert text={this.props.fallback} /> : this.props.children;
  }
}
