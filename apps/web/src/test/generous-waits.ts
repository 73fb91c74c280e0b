/**
 * findBy* and waitFor give up after 1 s by default: that only stops a hang, and a busy machine
 * (CI beside other work) can take longer to render. Generous, so a slow run is not a failure.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
