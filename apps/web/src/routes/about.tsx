import { createRoute } from '@tanstack/react-router';
import { AboutSection, BoxIcon, HandshakeIcon, LinkIcon, MaskIcon, ShieldIcon } from '../features/about/index.ts';
import { rootRoute } from './root.tsx';
import './about.css';

function AboutPage() {
  return (
    <div className="about">
      <AboutSection title="About" icon={<BoxIcon />} flipped={false}>
        <p>
          Sealbox is a drive you can host yourself, built so that the server storing your files cannot read them. Files, their
          names and their types are encrypted in your browser before anything is uploaded.
        </p>
      </AboutSection>
      <AboutSection title="Privacy and Security First" icon={<ShieldIcon />} flipped>
        <p>
          Every file and folder has its own random 256-bit key, and every key is sealed by the folder above it. Your password
          never leaves your device: what reaches the server is a hash it cannot reverse, and your private keys are unlocked only
          in your browser.
        </p>
      </AboutSection>
      <AboutSection title="Seamless and Secure File Sharing" icon={<LinkIcon />} flipped={false}>
        <p>
          Share with other users as viewers or editors, or send a link that can expire and ask for a password. A link carries its
          key after the <code>#</code>, a part of the address browsers never send to any server.
        </p>
      </AboutSection>
      <AboutSection title="Complete Anonymity" icon={<MaskIcon />} flipped>
        <p>
          Files can be uploaded and shared without an account, and anyone holding a link can open it without signing up. An
          account needs no email address, and we keep no trackers or analytics.
        </p>
      </AboutSection>
      <AboutSection title="Our Commitment to You" icon={<HandshakeIcon />} flipped={false}>
        <p>
          Your data is yours. Sealbox is open and self-hostable, its encryption formats are documented, and we will never build a
          way to read what you store.
        </p>
      </AboutSection>
    </div>
  );
}

export const aboutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/about',
  component: AboutPage,
});
