import type { ReactNode } from 'react';
import { cx } from '@sealbox/ui';
import { useRevealOnScroll } from './useRevealOnScroll.ts';
import './about.css';

export interface AboutSectionProps {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  /** Puts the illustration on the left: sections alternate sides. */
  flipped: boolean;
}

export function AboutSection({ title, icon, children, flipped }: AboutSectionProps) {
  const [ref, revealed] = useRevealOnScroll<HTMLElement>();
  const id = `about-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section
      ref={ref}
      aria-labelledby={id}
      className={cx('about-section', flipped && 'about-section--flipped', revealed && 'about-section--revealed')}
    >
      <div className="about-section__text">
        <h2 id={id}>{title}</h2>
        {children}
      </div>
      <div className="about-section__art" aria-hidden="true">
        {icon}
      </div>
    </section>
  );
}
