/** The /about page's sections and icons. */
export { AboutSection } from './AboutSection.tsx';
export { BoxIcon, HandshakeIcon, LinkIcon, MaskIcon, ShieldIcon } from './icons.tsx';
